import { useEffect, useRef, useState } from 'preact/hooks';
import { describedBy, FieldNotes, Required, type FieldProps } from './common';
import { LinkEditor } from './link-editor';

/**
 * Heavy editors load on first use (dynamic import), so the first page stays small; until then,
 * and if loading fails, a plain textarea edits the same text.
 */
function useLoaded<T>(load: () => Promise<T>): T | null | 'failed' {
  const [mod, setMod] = useState<T | null | 'failed'>(null);
  useEffect(() => {
    load().then(setMod, () => {
      setMod('failed');
    });
  }, []);
  return mod;
}

function PlainArea({ props }: { props: FieldProps }) {
  return (
    <textarea
      id={props.id}
      rows={8}
      value={typeof props.value === 'string' ? props.value : ''}
      aria-describedby={describedBy(props)}
      onInput={(e) => {
        props.onChange(e.currentTarget.value);
      }}
    />
  );
}

export function HtmlField(props: FieldProps) {
  const mod = useLoaded(() => import('../editors/rich-text'));
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<ReturnType<typeof import('../editors/rich-text').mountRichText> | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  useEffect(() => {
    if (!mod || mod === 'failed' || !host.current) return;
    const mounted = mod.mountRichText(host.current, {
      html: typeof props.value === 'string' ? props.value : '',
      labelledBy: `${props.id}-label`,
      ...(describedBy(props) ? { describedBy: describedBy(props) } : {}),
      onChange: (html) => {
        onChange.current(html);
      },
    });
    editor.current = mounted;
    return () => {
      mounted.destroy();
    };
  }, [mod]);
  const ready = mod && mod !== 'failed';
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <span class="label" id={`${props.id}-label`}>
        {props.mf.title}
        <Required mf={props.mf} />
      </span>
      {ready ? (
        <div class="toolbar" role="toolbar" aria-label={`${props.mf.title} formatting`}>
          <button type="button" onClick={() => editor.current?.toggle('bold')}>
            Bold
          </button>
          <button type="button" onClick={() => editor.current?.toggle('italic')}>
            Italic
          </button>
          <button type="button" onClick={() => editor.current?.toggle('heading')}>
            Heading
          </button>
          <button type="button" onClick={() => editor.current?.toggle('bulletList')}>
            List
          </button>
          <LinkEditor editor={() => editor.current} fieldId={props.id} />
        </div>
      ) : null}
      {mod === 'failed' ? <PlainArea props={props} /> : <div class="rich-text" ref={host} />}
      {mod === null ? <small class="muted">Loading editor…</small> : null}
      <FieldNotes props={props} />
    </div>
  );
}

export function JsonField(props: FieldProps) {
  const mod = useLoaded(() => import('../editors/code'));
  const host = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const text = typeof props.value === 'string' ? props.value : '';
  let problem: string | null = null;
  if (text.trim() !== '') {
    try {
      JSON.parse(text);
    } catch (err) {
      problem = `Not valid JSON: ${(err as Error).message}`;
    }
  }
  useEffect(() => {
    if (!mod || mod === 'failed' || !host.current) return;
    const mounted = mod.mountJsonEditor(host.current, {
      text,
      label: props.mf.title,
      describedBy: `${props.id}-check`,
      onChange: (t) => {
        onChange.current(t);
      },
    });
    return () => {
      mounted.destroy();
    };
  }, [mod]);
  return (
    <div class={`field${props.error || problem ? ' invalid' : ''}`}>
      <span class="label" id={`${props.id}-label`}>
        {props.mf.title}
        <Required mf={props.mf} />
      </span>
      {mod === 'failed' ? <PlainArea props={props} /> : <div class="code" ref={host} />}
      <small id={`${props.id}-check`} class={problem ? 'error' : 'muted'}>
        {problem ?? (text.trim() === '' ? 'Empty' : 'Valid JSON')}
      </small>
      <FieldNotes props={props} />
    </div>
  );
}

export function MarkdownField(props: FieldProps) {
  const [preview, setPreview] = useState<string | null>(null);
  const text = typeof props.value === 'string' ? props.value : '';
  const showPreview = async () => {
    if (preview !== null) {
      setPreview(null);
      return;
    }
    const { renderMarkdown } = await import('../editors/markdown');
    setPreview(renderMarkdown(text));
  };
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={props.id}>
        {props.mf.title}
        <Required mf={props.mf} />
      </label>
      <div class="toolbar">
        <button type="button" aria-pressed={preview !== null} onClick={() => void showPreview()}>
          Preview {props.mf.title}
        </button>
      </div>
      {preview !== null ? (
        <div class="markdown-preview" dangerouslySetInnerHTML={{ __html: preview }} />
      ) : (
        <textarea
          id={props.id}
          rows={8}
          value={text}
          aria-describedby={describedBy(props)}
          onInput={(e) => {
            props.onChange(e.currentTarget.value);
          }}
        />
      )}
      <FieldNotes props={props} />
    </div>
  );
}
