import { GraphQLError } from 'graphql';
import { errorDetail, translateError } from '../errors/translate.js';

/**
 * A GraphQL error as the answer carries it: `extensions.code` the v3 error code and
 * `extensions.status` the HTTP status REST would have answered. An error a resolver threw goes
 * through the same translation as a REST error (lib/errors/translate.ts), so a 500 says nothing
 * of its cause (the log has it); an error of the document itself (syntax, validation) is a 400.
 */
export function formatGraphQLError(log: (msg: string) => void) {
  return (err: Readonly<GraphQLError | Error>): GraphQLError => {
    const graphql = err instanceof GraphQLError ? err : null;
    const cause = graphql ? graphql.originalError : err;
    if (graphql && !cause) {
      const code = typeof graphql.extensions.code === 'string' ? graphql.extensions.code : 'bad_request';
      const status = typeof graphql.extensions.status === 'number' ? graphql.extensions.status : 400;
      return new GraphQLError(graphql.message, {
        nodes: graphql.nodes ?? null,
        source: graphql.source ?? null,
        positions: graphql.positions ?? null,
        extensions: { code, status },
      });
    }
    const http = translateError(cause);
    if (http.status >= 500) log(`GraphQL resolver failed: ${errorDetail(cause)}`);
    return new GraphQLError(http.message, {
      nodes: graphql?.nodes ?? null,
      path: graphql?.path ?? null,
      extensions: { code: http.code, status: http.status },
    });
  };
}
