import { ObjectId } from 'mongodb';
import type { Metafield, MetafieldOf, MetafieldType } from '../../lib/types/metafield.js';
import { MetadataValidators, type MetadataMode } from '../../lib/metafields/metadata-schema.js';

export const HEX_A = '5f1b2c3d4e5f6a7b8c9d0e1f';
export const HEX_B = '60aabbccddeeff0011223344';

/** A Metafield definition with its title defaulted to the key. */
export function mf<T extends MetafieldType>(
  type: T,
  key: string,
  extra: Partial<Omit<MetafieldOf<T>, 'type'>> = {},
): MetafieldOf<T> {
  return { type, key, title: key, ...extra };
}

/** One for every check: each new one costs a fresh Ajv. */
const validators = new MetadataValidators();

/** Problems the metadata validator of a fresh "posts" type finds. */
export function check(metafields: Metafield[], metadata: unknown, mode: MetadataMode = 'create'): string[] {
  return validators.for({ _id: new ObjectId(), modified_at: new Date(0), metafields, slug: 'posts' }, mode)(metadata);
}

/** The message format of a failing value. */
export function bad(key: string, type: string, detail: string): string {
  return `invalid value for key "${key}" of type "${type}": ${detail}`;
}
