import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import { RELATIONSHIP } from './metadata-types.js';

/**
 * What one GraphQL operation may ask for, checked while the document is validated, so before
 * any database read: one read key must not be able to run an unbounded query on the shared engine.
 */
export interface OperationLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
}

export interface OperationMeasure {
  /** Nesting of fields, the operation's own being 1 (introspection fields are not counted). */
  depth: number;
  aliases: number;
  /** Each field costs 1 for every item it is read for: the limits of the lists it is under. */
  cost: number;
}

/** The v3 list limit when a list field is not given one (lib/query/read-params.ts). */
export const DEFAULT_LIST_LIMIT = 1000;
/** What a relationship list (an objects Metafield) is reckoned to hold. */
export const RELATED_LIST_ITEMS = 10;

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/**
 * How many items a field returns for its children to be read for: a list read's literal `limit`
 * (else the v3 default), an estimate for a relationship list; 1 for the rest (the `objects` of a
 * page are the list read's items, already counted).
 */
function itemsOf(field: GraphQLField<unknown, unknown>, limitArg: number | undefined): number {
  if (field.args.some((a) => a.name === 'limit')) return limitArg ?? DEFAULT_LIST_LIMIT;
  const related = field.extensions[RELATIONSHIP] === true;
  return related && isListType(getNullableType(field.type)) ? RELATED_LIST_ITEMS : 1;
}

function measureSet(
  set: SelectionSetNode,
  type: GraphQLNamedType | undefined,
  fragments: Fragments,
  at: { depth: number; items: number },
  out: OperationMeasure,
  visiting: Set<string>,
): void {
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      measureSet(selection.selectionSet, type, fragments, at, out, visiting);
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      measureSet(fragment.selectionSet, type, fragments, at, out, visiting);
      visiting.delete(name);
      continue;
    }
    if (selection.alias) out.aliases++;
    // Introspection reads the schema held in memory, never the database.
    if (selection.name.value.startsWith('__')) continue;
    const depth = at.depth + 1;
    out.depth = Math.max(out.depth, depth);
    out.cost += at.items;
    const field = type && isObjectType(type) ? type.getFields()[selection.name.value] : undefined;
    if (!selection.selectionSet) continue;
    const limitNode = selection.arguments?.find((a) => a.name.value === 'limit')?.value;
    const limit = limitNode?.kind === Kind.INT ? Number(limitNode.value) : undefined;
    const items = field ? itemsOf(field, limit) : 1;
    const next = { depth, items: at.items * Math.max(items, 1) };
    measureSet(selection.selectionSet, field ? getNamedType(field.type) : undefined, fragments, next, out, visiting);
  }
}

/** The depth, aliases and cost of one operation of `doc`, measured against `schema`. */
export function measureOperation(
  schema: GraphQLSchema,
  doc: DocumentNode,
  operation: OperationDefinitionNode,
): OperationMeasure {
  const fragments = new Map(
    doc.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const root =
    operation.operation === OperationTypeNode.MUTATION
      ? schema.getMutationType()
      : operation.operation === OperationTypeNode.SUBSCRIPTION
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  const out: OperationMeasure = { depth: 0, aliases: 0, cost: 0 };
  measureSet(operation.selectionSet, root ?? undefined, fragments, { depth: 0, items: 1 }, out, new Set());
  return out;
}

/** Why `m` passes `limits`, or null when it does. */
export function limitRefusal(m: OperationMeasure, limits: OperationLimits): string | null {
  if (m.depth > limits.maxDepth)
    return `The operation nests fields ${String(m.depth)} deep; at most ${String(limits.maxDepth)} are allowed (GRAPHQL_MAX_DEPTH)`;
  if (m.aliases > limits.maxAliases)
    return `The operation has ${String(m.aliases)} aliases; at most ${String(limits.maxAliases)} are allowed (GRAPHQL_MAX_ALIASES)`;
  if (m.cost > limits.maxCost)
    return `The operation would cost ${String(m.cost)} (each field once per item of the lists it is under); at most ${String(limits.maxCost)} is allowed (GRAPHQL_MAX_COST): set smaller limits or ask for fewer fields`;
  return null;
}

/** The validation rule that refuses an operation past `limits` with `query_too_complex`. */
export function complexityRule(limits: OperationLimits): ValidationRule {
  return (context) => ({
    Document: {
      leave(doc) {
        for (const def of doc.definitions) {
          if (def.kind !== Kind.OPERATION_DEFINITION) continue;
          const why = limitRefusal(measureOperation(context.getSchema(), doc, def), limits);
          if (why !== null)
            context.reportError(
              new GraphQLError(why, { nodes: [def], extensions: { code: 'query_too_complex', status: 400 } }),
            );
        }
      },
    },
  });
}
