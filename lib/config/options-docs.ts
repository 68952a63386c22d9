import { OPTIONS, type OptionDecl } from './options.js';

/** The default column of one option, as the README and `--help` show it. */
export function shownDefault(o: OptionDecl): string {
  const note = o.note ? ` ${o.note}` : '';
  if (o.default !== null) return `\`${o.default}\`${note}`;
  if (o.derived !== undefined) return `\`${o.derived}\`${note}`;
  return `unset${note}`;
}

/** The cells of the README's configuration table, a row per option. */
export function optionRows(): string[][] {
  return OPTIONS.map((o) => [`\`${o.name}\``, shownDefault(o), o.meaning]);
}

/** The README's configuration table (unaligned: prettier aligns it). */
export function optionsTable(): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(['Variable', 'Default', 'Meaning']), line(['---', '---', '---']), ...optionRows().map(line)].join('\n');
}

/** `--help`: every variable with its default and meaning, as plain text. */
export function optionsHelp(): string {
  const plain = (s: string) => s.replace(/`/g, '');
  return OPTIONS.map((o) => `  ${o.name} (default: ${plain(shownDefault(o))})\n      ${plain(o.meaning)}`).join('\n');
}
