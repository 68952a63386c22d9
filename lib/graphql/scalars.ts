import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** A GraphQL literal as the JSON value it spells, variables taken from `variables`. */
function literalValue(node: ValueNode, variables: Readonly<Record<string, unknown>> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.NULL:
      return null;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.LIST:
      return node.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

/** Any JSON value: the v3 query filter, json Metafields, an Object's own Metafields. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value, passed through as it is.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => literalValue(node, variables),
});
