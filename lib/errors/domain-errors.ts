/**
 * Errors of the service's own domain. They carry no HTTP status: code outside the HTTP layer
 * (media storage, the admin CLI, start-up) throws them, and lib/errors/translate.ts decides
 * what a client sees for the ones a request can cause.
 */
export class DomainError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** An environment variable holds a value the service cannot use. */
export class ConfigError extends DomainError {}

/** No MongoDB engine could be reached or started. */
export class EngineUnavailableError extends DomainError {}

/** A refused Bucket administration command (bucketctl). */
export class BucketAdminError extends DomainError {}

/** A file-store (database) failure while storing an upload, as opposed to a client's malformed or aborted body. */
export class FileStoreError extends DomainError {
  constructor(cause: unknown) {
    super('storing the upload failed', { cause });
  }
}

export class UploadTooLargeError extends DomainError {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the ${maxBytes} byte upload limit`);
  }
}

/** The text fields of an upload form break their rules; every problem is listed. */
export class InvalidUploadError extends DomainError {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid upload: ${problems.join('; ')}`);
  }
}

/** A byte range that starts beyond the end of a stored file. */
export class RangeNotSatisfiableError extends DomainError {
  constructor(
    readonly range: string,
    readonly size: number,
  ) {
    super(`Range ${range} is outside the file's ${size} bytes`);
  }
}

/** An explicit slug (or every derived candidate) is already taken in the Bucket. */
export class SlugTakenError extends DomainError {}

/** An export, import, pull or Block installation that cannot go on; the message says where and why. */
export class MigrationError extends DomainError {}
