import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { getOperationAST, OperationTypeNode, type ExecutionResult } from 'graphql';
import type { OperationArgs } from 'graphql-http';
import { typeScopeOf } from '../accounts/type-scope.js';
import { readGeneration } from '../cache/bucket-generation.js';
import { bucketOf } from '../http/request.js';
import type { GraphQLContext } from './context.js';

/**
 * GraphQL answers kept in the app's read cache (the one REST reads use), like a REST read: a query
 * (never a mutation) that answered without errors is kept under the Bucket's state (its
 * generations, read with the Bucket on every request, so another process's write is seen), the
 * operation, its variables, the media type asked for and a contributor's types. The same query
 * again then costs the Bucket read alone.
 */

/** A kept answer: its status, content type and body. */
export interface KeptAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The key of a request's answer; the operation is hashed (documents can be long). */
export function answerKey(req: Request, res: Response): string {
  const bucket = bucketOf(res);
  const params =
    req.method === 'POST'
      ? JSON.stringify(req.body)
      : JSON.stringify([req.query.query, req.query.variables, req.query.operationName]);
  const digest = createHash('sha256')
    .update(`${req.get('accept') ?? ''}\n${JSON.stringify(typeScopeOf(res))}\n${params}`)
    .digest('base64url');
  return `${bucket._id.toHexString()}:${readGeneration(bucket)}:graphql:${digest}`;
}

const KEEPABLE = Symbol('graphql answer keepable');

/** graphql-http's onOperation: marks the answer of a query that succeeded as one to keep. */
export function markKeepable(
  req: { context: Response },
  args: OperationArgs<GraphQLContext>,
  result: ExecutionResult,
): void {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation === OperationTypeNode.QUERY && !result.errors)
    (req.context.locals as Record<symbol, boolean>)[KEEPABLE] = true;
}

export function isKeepable(res: Response): boolean {
  return (res.locals as Record<symbol, boolean>)[KEEPABLE] === true;
}
