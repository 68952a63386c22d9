import { RegExpParser, visitRegExpAST, type AST } from '@eslint-community/regexpp';
import safeRegex from 'safe-regex2';
import { ambiguityProblem } from './regex-ambiguity.js';

/**
 * Whose engine will run the pattern: MongoDB's (PCRE for mongod, java.util.regex for the embedded
 * mongo-java-server, for `$regex`) or a JavaScript one (Metafield `regex` rules, which this
 * process runs on a linear-time engine but clients may check with RegExp). The MongoDB engines
 * backtrack and the embedded one ignores maxTimeMS, so one slow pattern holds every Bucket's
 * reads. Both are checked by parsing the pattern as JavaScript (regexpp): safe-regex2 judges
 * star height, then regex-ambiguity.ts refuses anything more than linear in the text's length.
 */
type RegexDialect = 'mongodb' | 'javascript';

/** Quantifiers safe-regex2 accepts in one pattern before it calls the pattern too complex. */
const MAX_QUANTIFIERS = 25;

const parser = new RegExpParser({ ecmaVersion: 2024 });

/** Escapes JavaScript reads as they are written; any other letter escape is read as the bare letter. */
const JS_LETTER_ESCAPES = new Set(['\\n', '\\r', '\\t', '\\f', '\\v', '\\b']);

/**
 * PCRE reads some JavaScript literals as syntax, so the JavaScript parse would not show what
 * MongoDB runs: `\g1` and `\k<n>` are back-references there, `{,5}` a quantifier.
 */
function mongoMisreading(node: AST.Character): string | null {
  const raw = node.raw;
  if (/^\\[A-Za-z]$/.test(raw) && !JS_LETTER_ESCAPES.has(raw))
    return `the escape ${raw} has another meaning in MongoDB's regular expressions (\\g and \\k are back-references there); write the letter without "\\"`;
  if (/^\\[1-9]/.test(raw)) return `${raw} refers to no group`;
  if (raw === '{') return 'a literal "{" must be escaped as \\{ (MongoDB may read it as a quantifier)';
  // Java reads [a[bc]] as a union of classes and PCRE [[:alpha:]] as a POSIX class, so the
  // JavaScript reading (a class, then a literal "]") would be checked instead of what runs.
  if (raw === '[' && (node.parent.type === 'CharacterClass' || node.parent.type === 'CharacterClassRange'))
    return 'a literal "[" inside a character class must be escaped as \\[ (MongoDB may read it as a nested or POSIX class)';
  return null;
}

/** Back-references and look-around need a backtracking engine; one a linear-time engine refuses. */
function syntaxProblem(ast: AST.Pattern, dialect: RegexDialect): string | null {
  let problem: string | null = null;
  const found = (p: string | null): void => {
    problem ??= p;
  };
  visitRegExpAST(ast, {
    onBackreferenceEnter: (node) => {
      found(`back-references such as ${node.raw} are not allowed: they need a backtracking engine`);
    },
    onAssertionEnter: (node) => {
      if (node.kind !== 'lookahead' && node.kind !== 'lookbehind') return;
      const opener = `(?${node.kind === 'lookbehind' ? '<' : ''}${node.negate ? '!' : '='}`;
      found(`look-around assertions such as ${opener}...) are not allowed: they need a backtracking engine`);
    },
    onCharacterEnter: (node) => {
      if (dialect === 'mongodb') found(mongoMisreading(node));
    },
  });
  return problem;
}

function safetyProblem(source: string, flags: string, dialect: RegexDialect): string | null {
  let ast: AST.Pattern;
  try {
    ast = parser.parsePattern(source, 0, source.length, {
      unicode: flags.includes('u'),
      unicodeSets: flags.includes('v'),
    });
  } catch (err) {
    // A stack overflow on absurd nesting lands here too: whatever cannot be parsed is not run.
    return `cannot be checked for safety (${err instanceof SyntaxError ? err.message : 'too deeply nested'})`;
  }
  const syntax = syntaxProblem(ast, dialect);
  if (syntax !== null) return syntax;
  if (!safeRegex(source, { limit: Infinity }))
    return 'nested quantifiers (a quantified group containing a quantifier, such as (a+)+ or (a+)?) can take exponential time; write an optional group as (?:x|) rather than (x)?';
  if (!safeRegex(source, { limit: MAX_QUANTIFIERS })) return `more than ${MAX_QUANTIFIERS} quantifiers`;
  return ambiguityProblem(ast, {
    ignoreCase: flags.includes('i'),
    multiline: flags.includes('m'),
    dotAll: flags.includes('s'),
  });
}

/**
 * Why a `$regex` pattern may run for more than linear time on MongoDB, or null when it is safe.
 * Assumes it compiles as JavaScript (the filter validator reports that first). With the `x`
 * option MongoDB skips whitespace and `#` comments, reading "(a+) +" as "(a+)+", so such
 * patterns are only accepted when the option cannot change how they read.
 */
export function mongoRegexProblem(pattern: string, options: string): string | null {
  if (options.includes('x') && /[\s#]/.test(pattern))
    return 'with the x option the pattern may not contain whitespace or "#" (the option makes MongoDB skip them)';
  return safetyProblem(pattern, options.replace(/[^ims]/g, ''), 'mongodb');
}

/** Why a JavaScript pattern (a Metafield `regex`) may freeze the process, or null. Assumes it compiles. */
export function jsRegexProblem(source: string, flags: string): string | null {
  return safetyProblem(source, flags, 'javascript');
}
