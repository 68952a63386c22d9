import type { BatchResult } from '../objects/batch.js';
import type { ApiBlock } from '../blocks/blocks.js';
import type { ApiMedia } from '../media/serialize.js';
import type { ApiObject } from '../objects/serialize.js';
import type { ApiObjectType } from '../object-types/serialize.js';
import type { ApiRevision } from '../revisions/serialize.js';

/*
 * Bodies of the v3 responses (schemas/*Response.json, *List.json, BatchResponse.json). Reads
 * taking `props` answer items narrowed by `pickProps`: those wrappers take `Picked` items.
 */

/** What `props` leaves of a rendered item: all of it, or any subset of its fields, nested ones too. */
export type Picked = Record<string, unknown>;

export type ObjectResponse<Item = ApiObject> = { object: Item };
export type ObjectList<Item = Picked> = { objects: Item[]; total: number };

export type ObjectTypeResponse = { object_type: ApiObjectType };
export type ObjectTypeList = { object_types: ApiObjectType[] };

export type MediaResponse<Item = ApiMedia> = { media: Item };
export type MediaList<Item = Picked> = { media: Item[]; total: number };
/** The v1/v2 media list: also the page size it applied. */
export type LegacyMediaList<Item = Picked> = MediaList<Item> & { limit: number };

export type RevisionResponse<Item = ApiRevision> = { revision: Item };
export type RevisionList<Item = Picked> = { revisions: Item[]; total: number };

/** One result per operation, in request order. */
export type BatchResponse = { operations: BatchResult<ApiObject>[] };

export type BlocksList = { blocks: ApiBlock[] };
