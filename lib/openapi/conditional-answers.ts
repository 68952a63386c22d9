import { isPlainObject } from '../util/values.js';

/**
 * Every JSON answer to a GET carries an ETag (Express's default), and a GET whose If-None-Match
 * names the current one is answered 304 with no body: browsers (Studio among them) send it on
 * every repeated read. Operations that describe their own 304 (file reads) keep it.
 */
const NOT_MODIFIED = {
  description: 'Not Modified: the answer is unchanged since the ETag sent in If-None-Match; no body.',
};

export function addConditionalAnswers(paths: Record<string, unknown>): void {
  for (const item of Object.values(paths)) {
    const responses = isPlainObject(item) && isPlainObject(item.get) ? item.get.responses : undefined;
    if (isPlainObject(responses)) responses['304'] ??= NOT_MODIFIED;
  }
}
