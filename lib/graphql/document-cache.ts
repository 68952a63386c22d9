import { LRUCache } from 'lru-cache';
import { parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';

/**
 * Parsed and validated documents, kept: a front end sends the same few operations over and over,
 * and parsing and validating one (with the limits of limits.ts) costs more than executing a small
 * one. A document is parsed once per text; validated once per schema it runs against (a schema
 * is made once per Bucket generation, so a type change validates again).
 */
export class DocumentCache {
  private readonly parsed = new LRUCache<string, DocumentNode>({ max: 1000 });
  private readonly validated = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly GraphQLError[]>>();

  readonly parse = (source: Parameters<typeof parse>[0], options?: Parameters<typeof parse>[1]): DocumentNode => {
    if (typeof source !== 'string' || options !== undefined) return parse(source, options);
    const hit = this.parsed.get(source);
    if (hit) return hit;
    const doc = parse(source);
    this.parsed.set(source, doc);
    return doc;
  };

  readonly validate = (...args: Parameters<typeof validate>): readonly GraphQLError[] => {
    const [schema, doc] = args;
    let bySchema = this.validated.get(schema);
    if (!bySchema) {
      bySchema = new WeakMap();
      this.validated.set(schema, bySchema);
    }
    const hit = bySchema.get(doc);
    if (hit) return hit;
    const errors = validate(...args);
    bySchema.set(doc, errors);
    return errors;
  };
}
