import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Harness } from './harness.js';

type Body = Record<string, unknown>;
/** The methods of the legacy v2 client (cosmicjs 4.3.7) these tests call; it answers response bodies. */
type Call = (params?: Body) => Promise<Body>;
interface ObjectChain extends PromiseLike<Body> {
  props(p: string): ObjectChain;
  depth(n: number): ObjectChain;
  sort(s: string): ObjectChain;
  limit(n: number): ObjectChain;
  skip(n: number): ObjectChain;
  status(s: string): ObjectChain;
  after(id: string): ObjectChain;
  showMetafields(b: boolean): ObjectChain;
  useCache(b: boolean): ObjectChain;
}
interface MediaChain extends PromiseLike<Body> {
  find(query?: Body): MediaChain;
  findOne(query: { id: string }): MediaChain;
  props(p: string): MediaChain;
  sort(s: string): MediaChain;
  limit(n: number): MediaChain;
  skip(n: number): MediaChain;
  insertOne: Call;
  deleteOne: Call;
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
  getUsers: Call;
  getUser: Call;
  addUser: Call;
  addMedia: Call;
  getMedia: Call;
  getSingleMedia: Call;
  deleteMedia: Call;
  objects: {
    find(query?: Body): ObjectChain;
    findOne(query: { id: string }): ObjectChain;
    insertOne: Call;
    updateOne(params: { id: string }, set: { $set: Body }): Promise<Body>;
    deleteOne: Call;
  };
  media: MediaChain;
}
export interface V2Keys {
  slug: string;
  read_key?: string;
  write_key?: string;
}
type CosmicV2 = (config?: { token?: string }) => {
  bucket(config: V2Keys): CosmicV2Bucket;
  authenticate: Call;
  getBuckets: Call;
  getBucket: Call;
  getUser: Call;
};

/**
 * Loads the unchanged client pointed at `apiUrl`. It reads its addresses from the environment
 * once, when first loaded, so the environment is set just before; one load serves a test run.
 */
function loadCosmicV2(apiUrl: string): CosmicV2 {
  process.env.COSMIC_API_URL = apiUrl;
  process.env.COSMIC_API_VERSION = 'v2';
  process.env.UPLOAD_API_URL = apiUrl;
  const require = createRequire(import.meta.url);
  return require('cosmicjs-v2') as CosmicV2;
}

/** What the client rejects with: the error body the service answered. */
export async function rejection(p: PromiseLike<unknown>): Promise<Body> {
  try {
    await p;
  } catch (err) {
    return err as Body;
  }
  throw new Error('expected the call to fail');
}

export type Doc = Body & { id: string };
/** The wrapped item of a response (`object`, `object_type`, `media`, `revision`). */
export const field = (body: Body, key: string) => body[key] as Doc;
export const items = (body: Body, key: string) => body[key] as Doc[];

let shared: { url: string; app: http.RequestListener } | null = null;

/**
 * A client for the harness app, over a real port (the client speaks HTTP). The client keeps the
 * address it first loaded with for the whole run, so one server, unref'd, serves every suite,
 * handing each request to the app of the suite that asked last.
 */
export async function cosmicV2For(h: Harness): Promise<CosmicV2> {
  if (!shared) {
    const state = { url: '', app: h.app as http.RequestListener };
    const server = http.createServer((req, res) => {
      state.app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.unref();
    state.url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    shared = state;
  }
  shared.app = h.app;
  return loadCosmicV2(shared.url);
}
