import { createRequire } from 'node:module';
import path from 'node:path';

type Call = (params?: Record<string, unknown>) => Promise<unknown>;

/** The methods of the v1 client's bucket this suite drives (the client answers error bodies, never throws). */
export interface V1Bucket {
  getBucket: Call;
  getObjects: Call;
  getObject: Call;
  getObjectRevisions: Call;
  getMergeRequestObjects: Call;
  addObject: Call;
  addObjectRevision: Call;
  editObject: Call;
  editObjectMetafields: Call;
  deleteObject: Call;
  getObjectTypes: Call;
  getObjectsByType: Call;
  searchObjectType: Call;
  addObjectType: Call;
  editObjectType: Call;
  deleteObjectType: Call;
  addMedia: Call;
  getMedia: Call;
  deleteMedia: Call;
  getWebhooks: Call;
  addWebhook: Call;
  deleteWebhook: Call;
  getUsers: Call;
  getUser: Call;
  addUser: Call;
  getExtensions: Call;
  addExtension: Call;
  editExtension: Call;
  deleteExtension: Call;
}

export type CosmicV1 = (config?: { token?: string }) => {
  bucket: (config: { slug: string; read_key?: string; write_key?: string }) => V1Bucket;
  authenticate: Call;
  getBuckets: Call;
  addBucket: Call;
  deleteBucket: Call;
};

/**
 * The unchanged cosmicjs 3.4.4 client pointed at `baseUrl`. It reads its addresses from the
 * environment once, when first loaded, so they are set just for that load and restored after.
 */
export function loadCosmicV1(baseUrl: string): CosmicV1 {
  const saved = {
    api: process.env.COSMIC_API_URL,
    upload: process.env.UPLOAD_API_URL,
    version: process.env.COSMIC_API_VERSION,
  };
  process.env.COSMIC_API_URL = baseUrl;
  process.env.UPLOAD_API_URL = baseUrl;
  // The v2 client's loader leaves COSMIC_API_VERSION=v2 behind; this client reads the same variable.
  process.env.COSMIC_API_VERSION = 'v1';
  const require = createRequire(import.meta.url);
  // The client reads the addresses when its modules load, so a second suite on another server
  // loads them afresh (its axios, under its own node_modules, stays the one shared instance).
  const own = path.dirname(require.resolve('cosmicjs-v1'));
  for (const file of Object.keys(require.cache)) {
    if (file.startsWith(own + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`, own.length)) {
      Reflect.deleteProperty(require.cache, file);
    }
  }
  try {
    return require('cosmicjs-v1') as CosmicV1;
  } finally {
    if (saved.api === undefined) delete process.env.COSMIC_API_URL;
    else process.env.COSMIC_API_URL = saved.api;
    if (saved.upload === undefined) delete process.env.UPLOAD_API_URL;
    else process.env.UPLOAD_API_URL = saved.upload;
    if (saved.version === undefined) delete process.env.COSMIC_API_VERSION;
    else process.env.COSMIC_API_VERSION = saved.version;
  }
}

/**
 * A client made with a token sets it on the defaults of the axios it shares with every other
 * client in the process (the v2 client included); a suite that made one takes it off after.
 */
export function forgetCosmicV1Token(): void {
  const fromClient = createRequire(createRequire(import.meta.url).resolve('cosmicjs-v1'));
  const axios = fromClient('axios') as { defaults: { headers: { common: Record<string, unknown> } } };
  delete axios.defaults.headers.common.Authorization;
}
