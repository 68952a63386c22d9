import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { checkLinkAddress } from '../../../lib/util/link-address';

export interface RichTextEditor {
  destroy: () => void;
  toggle: (mark: 'bold' | 'italic' | 'bulletList' | 'heading') => void;
  /** The href of the link at the selection, or null. */
  linkAt: () => string | null;
  /** Links the selection (or the whole link the cursor is in) to `href`, already checked. */
  setLink: (href: string) => void;
  unsetLink: () => void;
}

/** A ProseMirror editor (through Tiptap) in `host`, reporting its HTML on every change. */
export function mountRichText(
  host: HTMLElement,
  options: { html: string; labelledBy: string; describedBy?: string; onChange: (html: string) => void },
): RichTextEditor {
  const editor = new Editor({
    element: host,
    extensions: [
      StarterKit.configure({
        link: {
          // A click in the editor places the cursor; following the link would leave the page.
          openOnClick: false,
          autolink: false,
          // Pasted or loaded links pass the same check as typed ones (no javascript: and the like).
          isAllowedUri: (url) => 'href' in checkLinkAddress(url),
        },
      }),
    ],
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
    linkAt: () => {
      const href: unknown = editor.getAttributes('link').href;
      return typeof href === 'string' ? href : null;
    },
    setLink: (href) => {
      editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    },
    unsetLink: () => {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
    },
  };
}
