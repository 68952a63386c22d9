import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';

/** A ProseMirror editor (through Tiptap) in `host`, reporting its HTML on every change. */
export function mountRichText(
  host: HTMLElement,
  options: { html: string; labelledBy: string; describedBy?: string; onChange: (html: string) => void },
): { destroy: () => void; toggle: (mark: 'bold' | 'italic' | 'bulletList' | 'heading') => void } {
  const editor = new Editor({
    element: host,
    extensions: [StarterKit],
    content: options.html,
    // Tiptap would add a <style> element, which the page's CSP refuses; studio's CSS has the rules.
    injectCSS: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': options.labelledBy,
        ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
        class: 'rich-text-area',
      },
    },
    onUpdate: ({ editor: e }) => {
      options.onChange(e.getHTML());
    },
  });
  return {
    destroy: () => {
      editor.destroy();
    },
    toggle: (mark) => {
      const chain = editor.chain().focus();
      if (mark === 'bold') chain.toggleBold().run();
      else if (mark === 'italic') chain.toggleItalic().run();
      else if (mark === 'bulletList') chain.toggleBulletList().run();
      else chain.toggleHeading({ level: 2 }).run();
    },
  };
}
