import { useEffect, useState } from 'preact/hooks';
import { diffTokens, diffWords, type DiffRun } from '../../../lib/util/token-diff';
import { valueLines } from '../../../lib/util/value-lines';
import type { Kind, ObjectType, Revision } from '../types';

/** How a field's two values are compared: by words, as rendered HTML, or line by line. */
type Way = 'words' | 'html' | 'markdown' | 'lines';

interface FieldPair {
  title: string;
  way: Way;
  before: unknown;
  after: unknown;
}

const BY_WORDS: ReadonlySet<Kind> = new Set(['text', 'textarea', 'number', 'date', 'switch']);

function wayOf(kind: Kind): Way {
  if (kind === 'html-textarea') return 'html';
  if (kind === 'markdown') return 'markdown';
  return BY_WORDS.has(kind) ? 'words' : 'lines';
}

/** Every field of the two versions, in the editor's order: title, status, content, then each Metafield. */
function fieldPairs(type: ObjectType, from: Revision, to: Revision): FieldPair[] {
  const pairs: FieldPair[] = [
    { title: 'Title', way: 'words', before: from.title, after: to.title },
    { title: 'Status', way: 'words', before: from.status, after: to.status },
  ];
  if (from.content || to.content)
    pairs.push({ title: 'Content', way: 'html', before: from.content, after: to.content });
  for (const mf of type.metafields) {
    pairs.push({ title: mf.title, way: wayOf(mf.type), before: from.metadata?.[mf.key], after: to.metadata?.[mf.key] });
  }
  return pairs;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function Run({ run }: { run: DiffRun }) {
  const text = run.tokens.join('');
  if (run.kind === 'ins') return <ins>{text}</ins>;
  if (run.kind === 'del') return <del>{text}</del>;
  return <>{text}</>;
}

function WordChanges({ before, after }: { before: unknown; after: unknown }) {
  return (
    <p class="diff-words">
      {diffWords(asText(before), asText(after)).map((run, i) => (
        <Run key={i} run={run} />
      ))}
    </p>
  );
}

function LineChanges({ before, after }: { before: unknown; after: unknown }) {
  const runs = diffTokens(valueLines(before), valueLines(after));
  return (
    <ul class="diff-lines">
      {runs.flatMap((run, i) =>
        run.tokens.map((line, j) => (
          <li key={`${i}-${j}`}>
            <Run run={{ kind: run.kind, tokens: [line] }} />
          </li>
        )),
      )}
    </ul>
  );
}

/** Rich text and markdown as they render, changes marked; the renderer loads on first use. */
function RenderedChanges({ way, before, after }: { way: 'html' | 'markdown'; before: unknown; after: unknown }) {
  const [html, setHtml] = useState<string | null>(null);
  const [a, b] = [asText(before), asText(after)];
  useEffect(() => {
    // Another pair may be chosen before the renderer answers for this one: the two loads can
    // settle in either order, so only the current pair's may set what shows.
    let current = true;
    import('./rendered-diff').then(
      (m) => {
        if (current) setHtml(way === 'html' ? m.htmlChanges(a, b) : m.markdownChanges(a, b));
      },
      () => {
        if (current) setHtml(null);
      },
    );
    return () => {
      current = false;
    };
  }, [way, a, b]);
  if (html === null) return <WordChanges before={a} after={b} />;
  return <div class="diff-rendered" dangerouslySetInnerHTML={{ __html: html }} />;
}

function Changes({ pair }: { pair: FieldPair }) {
  if (pair.way === 'words') return <WordChanges before={pair.before} after={pair.after} />;
  if (pair.way === 'lines') return <LineChanges before={pair.before} after={pair.after} />;
  return <RenderedChanges way={pair.way} before={pair.before} after={pair.after} />;
}

/** Two versions of an Object field by field: what changed from `from` to `to`, and what did not. */
export function Compare({
  type,
  from,
  to,
  labelOf,
}: {
  type: ObjectType;
  from: Revision;
  to: Revision;
  labelOf: (r: Revision) => string;
}) {
  const pairs = fieldPairs(type, from, to);
  const same = (p: FieldPair) => JSON.stringify(p.before ?? null) === JSON.stringify(p.after ?? null);
  const changed = pairs.filter((p) => !same(p));
  const unchanged = pairs.filter(same).map((p) => p.title);
  return (
    <section class="compare" aria-labelledby="compare-heading">
      <h4 id="compare-heading">
        Changes from {labelOf(from)} to {labelOf(to)}
      </h4>
      <p class="muted compare-legend">
        Inserted text is <ins>underlined</ins>, deleted text is <del>struck through</del>.
      </p>
      {changed.length === 0 ? <p>No field differs.</p> : null}
      <dl class="compare-fields">
        {changed.map((p) => (
          <div key={p.title} class="compare-field">
            <dt>{p.title}</dt>
            <dd>
              <Changes pair={p} />
            </dd>
          </div>
        ))}
      </dl>
      {unchanged.length > 0 ? <p class="muted">Unchanged: {unchanged.join(', ')}.</p> : null}
    </section>
  );
}
