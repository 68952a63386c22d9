// Studio's keyboard shortcuts, listed once: the help dialog (shortcuts-help.tsx) shows this list,
// so a page that adds a shortcut adds a line here and the help stays true.

export interface Shortcut {
  /** The key combinations that do it, each as the keys pressed together (alternatives: another platform). */
  keys: string[][];
  /** What it does, as the help dialog says it. */
  action: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  {
    keys: [
      ['Ctrl', 'S'],
      ['⌘', 'S'],
    ],
    action: 'Save the Object being edited',
  },
  { keys: [['?']], action: 'Show these keyboard shortcuts (outside a text field)' },
  { keys: [['Esc']], action: 'Close a dialog' },
];

/** Whether typing goes into the element, so a single-key shortcut must leave the key alone. */
export function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color', 'image'].includes(target.type);
}
