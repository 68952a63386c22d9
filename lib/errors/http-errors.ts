/** An error that already knows its HTTP status and the message a client may read. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly documentation?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message: string) {
    super(401, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message: string) {
    super(413, message);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

/** Collects every problem of one request so they are reported together in one 400. */
export class ValidationErrors {
  private readonly problems: string[] = [];

  add(problem: string): void {
    this.problems.push(problem);
  }

  get count(): number {
    return this.problems.length;
  }

  throwIfAny(prefix = 'Invalid request'): void {
    if (this.problems.length > 0) throw new BadRequestError(`${prefix}: ${this.problems.join('; ')}`);
  }
}
