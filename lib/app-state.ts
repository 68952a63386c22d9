import type { Db } from 'mongodb';
import type { Config } from './config.js';
import { MonthlyRequests } from './limits/monthly-requests.js';
import { RateLimits } from './limits/rate-limits.js';
import { createMediaRuntime, type MediaRuntime } from './media/media-runtime.js';
import { DomainEvents } from './events/domain-events.js';
import type { ObjectWriteDeps } from './objects/write/object-writes.js';
import type { Response } from 'express';
import type { ForRequest } from './http/respond.js';
import { writeRequestOf } from './accounts/request-account.js';
import { PreviewSecret } from './preview/preview-tokens.js';
import { AccountTokens } from './accounts/request-account.js';
import { Logins } from './accounts/login.js';
import type { BucketTypes } from './render/objects.js';
import { MetadataValidators } from './metafields/metadata-schema.js';
import { ListOrders } from './cache/list-orders.js';
import { ListTotals } from './cache/list-totals.js';
import { ReadCache } from './cache/read-cache.js';
import { PerClientLimit } from './http/per-client-limit.js';
import { StreamCaps } from './limits/stream-caps.js';
import { VersionMemo } from './objects/write/version-memo.js';

/**
 * Everything an app keeps between requests, made once by createApp and handed to what needs
 * it. Nothing of the kind lives in module variables: two apps in one process (two databases,
 * or a test beside the server) share none of it, and each answers from its own database only.
 */
export class AppState {
  /** Serialized read responses. */
  readonly reads: ReadCache;
  /** Totals of Object lists by Bucket generation and filter, so a list read again counts nothing. */
  readonly totals: ListTotals;
  /** Orders of Object lists by Bucket generation, filter and sort, so later pages are read by id. */
  readonly orders: ListOrders;
  /** Object types by Bucket generation, for filters, sorting and rendering. */
  readonly types: BucketTypes;
  /** Compiled metadata validators of stored Object types. */
  readonly validators = new MetadataValidators();
  /** The preview-token signing secret of this app's database. */
  readonly previewSecret: PreviewSecret;
  /** Signs and checks account access tokens (lib/accounts/request-account.ts). */
  readonly accountTokens: AccountTokens;
  /** Logins: attempts counted in the database, password checks bounded per process (lib/accounts/login.ts). */
  readonly logins: Logins;
  /** Image processing, upload admission and background file removal. */
  readonly media: MediaRuntime;
  /** Where every mutation hands its domain event (sinks registered by whoever made the app). */
  readonly events: DomainEvents;
  /** What the write services take: this app's database, validators, event seam and default plan. */
  readonly writes: ObjectWriteDeps;
  /** Leases on the per-minute request budgets, whose counts every process shares. */
  readonly rates: RateLimits;
  /** Requests served per Bucket this month, gathered before they are added in the database. */
  readonly requests: MonthlyRequests;
  /** Lists with a `$regex` on `content` running per Bucket (lib/objects/list/regex-budget.ts). */
  readonly regexReads: PerClientLimit;
  /** Open change feed streams by Bucket and address, and what they sent (lib/realtime/). */
  readonly streams: StreamCaps;
  /** The latest version of each Object this app last wrote, so its next edit skips the read (lib/objects/write/version-memo.ts). */
  readonly versions: VersionMemo;

  /** What the write services take for the request of `res`: `writes`, with who it acts for and where its put-off work waits. */
  writesFor(res: Response): ObjectWriteDeps & ForRequest {
    return { ...this.writes, request: writeRequestOf(res) };
  }

  constructor(config: Config, db: Db, log: (msg: string) => void, events?: DomainEvents) {
    this.events = events ?? new DomainEvents(config);
    // One per app, read by writes, events and reads alike.
    this.types = this.events.types;
    // A version is typically a few kB, kept for nothing more than its next edit: a quarter of the
    // response cache keeps thousands (and one larger than all of it is not kept).
    this.versions = new VersionMemo(config.cacheMaxBytes / 4);
    this.writes = {
      db,
      validators: this.validators,
      events: this.events,
      plans: config.planDefaults,
      versions: this.versions,
    };
    this.rates = new RateLimits(db, config.rateLimits);
    this.requests = new MonthlyRequests(db);
    this.regexReads = new PerClientLimit(config.regexReadsPerBucket);
    this.streams = new StreamCaps({
      perBucket: config.realtime.maxStreamsPerBucket,
      perAddress: config.realtime.maxStreamsPerAddress,
    });
    this.reads = new ReadCache(config.cacheMaxBytes);
    // A total is a number under a key of a few hundred bytes: a sixteenth of the response cache holds thousands.
    this.totals = new ListTotals(config.cacheMaxBytes / 16);
    // About 21 bytes per match (its id, and a number or date sort value packed): an eighth of the
    // response cache keeps 80 lists of 5,000.
    this.orders = new ListOrders(config.cacheMaxBytes / 8, config.listOrderMaxIds);
    this.previewSecret = new PreviewSecret(db, config.previewTokenSecret);
    this.accountTokens = new AccountTokens(db, config);
    this.logins = new Logins(db, this.accountTokens, config.logins);
    this.media = createMediaRuntime(config, db, log);
  }
}
