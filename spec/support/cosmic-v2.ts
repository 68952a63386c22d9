import { createRequire } from 'node:module';

/** The methods of the legacy v2 client (cosmicjs 4.3.7) these tests call; it answers response bodies. */
type Call = (params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
interface Chain extends PromiseLike<Record<string, unknown>> {
  props(p: string): Chain;
  limit(n: number): Chain;
  sort(s: string): Chain;
}
export interface CosmicV2Bucket {
  getObjectTypes: Call;
  getObjectType: Call;
  addObjectType: Call;
  editObjectType: Call;
  deleteObjectType: Call;
  getObjects: Call;
  getObject: Call;
  addObject: Call;
  editObject: Call;
  deleteObject: Call;
  getObjectRevisions: Call;
  addObjectRevision: Call;
  getObjectMetafields: Call;
  editObjectMetafields: Call;
  editObjectMetafield: Call;
  getMergeRequestObjects: Call;
  addMedia: Call;
  getMedia: Call;
  getSingleMedia: Call;
  deleteMedia: Call;
  objects: {
    find(query?: Record<string, unknown>): Chain;
    findOne(query: { id: string }): Chain;
    insertOne: Call;
    updateOne(params: { id: string }, set: { $set: Record<string, unknown> }): Promise<Record<string, unknown>>;
    deleteOne: Call;
  };
  media: { find(query?: Record<string, unknown>): Chain; insertOne: Call; deleteOne: Call };
}
type CosmicV2 = () => { bucket(config: { slug: string; read_key?: string; write_key?: string }): CosmicV2Bucket };

/**
 * Loads the unchanged client pointed at `apiUrl`. It reads its addresses from the environment
 * once, when first loaded, so the environment is set just before; one load serves a test run.
 */
export function loadCosmicV2(apiUrl: string): CosmicV2 {
  process.env.COSMIC_API_URL = apiUrl;
  process.env.COSMIC_API_VERSION = 'v2';
  process.env.UPLOAD_API_URL = apiUrl;
  const require = createRequire(import.meta.url);
  return require('cosmicjs-v2') as CosmicV2;
}
