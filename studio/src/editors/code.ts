import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView, basicSetup } from 'codemirror';

/** A CodeMirror JSON editor in `host` that marks syntax errors as it goes. */
export function mountJsonEditor(
  host: HTMLElement,
  options: { text: string; label: string; describedBy?: string; onChange: (text: string) => void },
): { destroy: () => void } {
  const view = new EditorView({
    doc: options.text,
    parent: host,
    extensions: [
      basicSetup,
      // CodeMirror adds its theme as <style> elements, which the page's CSP admits by this nonce.
      EditorView.cspNonce.of(document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? ''),
      json(),
      linter(jsonParseLinter()),
      lintGutter(),
      EditorView.contentAttributes.of({
        'aria-label': options.label,
        ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) options.onChange(update.state.doc.toString());
      }),
    ],
  });
  return {
    destroy: () => {
      view.destroy();
    },
  };
}
