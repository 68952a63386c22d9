import { ValidationErrors } from '../errors/http-errors.js';

export const FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
export type Fit = (typeof FITS)[number];
export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Largest requested width or height: bounds the memory and time one request can demand. */
export const MAX_DIMENSION = 4000;

/** Requested processing; every member optional, as clients send any subset. */
export interface ImgprocParams {
  width?: number;
  height?: number;
  fit?: Fit;
  format?: OutputFormat;
  quality?: number;
}

/** Image-service spellings mapped to this service's names. */
const FIT_ALIASES: Readonly<Record<string, Fit>> = {
  crop: 'cover',
  clip: 'inside',
  max: 'inside',
  fillmax: 'contain',
  scale: 'fill',
};
const FORMAT_NAMES: Readonly<Record<string, OutputFormat>> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  pjpg: 'jpeg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
};
const UNSIGNED = /^\d{1,9}$/;

/**
 * `w`, `h`, `fit`, `fm`, `q` from a query string, every problem in one 400. Other parameters
 * (an image service's `auto`, `dpr`, ...) are ignored so URLs built for one keep working.
 * Returns null when nothing is asked, so the original is served.
 */
export function parseImgprocParams(query: Record<string, unknown>): ImgprocParams | null {
  const errors = new ValidationErrors();
  const read = (name: string): string | undefined => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw === 'string') return raw.trim().toLowerCase();
    errors.add(`${name} must be given once`);
    return undefined;
  };
  const integer = (name: string, min: number, max: number): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    const n = UNSIGNED.test(raw) ? Number(raw) : NaN;
    if (n >= min && n <= max) return n;
    errors.add(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw.slice(0, 20))}`);
    return undefined;
  };

  const params: ImgprocParams = {};
  const width = integer('w', 1, MAX_DIMENSION);
  const height = integer('h', 1, MAX_DIMENSION);
  const quality = integer('q', 1, 100);
  if (width !== undefined) params.width = width;
  if (height !== undefined) params.height = height;
  if (quality !== undefined) params.quality = quality;

  const fitName = (raw: string): Fit | undefined =>
    (FITS as readonly string[]).includes(raw)
      ? (raw as Fit)
      : Object.hasOwn(FIT_ALIASES, raw)
        ? FIT_ALIASES[raw]
        : undefined;
  const fit = read('fit');
  if (fit !== undefined) {
    const resolved = fitName(fit);
    if (resolved) params.fit = resolved;
    else errors.add(`fit must be one of ${[...FITS, 'crop'].join(', ')}, got ${JSON.stringify(fit.slice(0, 20))}`);
  } else {
    // `crop=cover` is accepted as a spelling of fit; other crop values (positions such as
    // "faces" or "center" in image-service URLs) are not fits and are ignored.
    const crop = read('crop');
    const resolved = crop === undefined ? undefined : fitName(crop);
    if (resolved) params.fit = resolved;
  }
  const fm = read('fm');
  if (fm !== undefined) {
    const format = Object.hasOwn(FORMAT_NAMES, fm) ? FORMAT_NAMES[fm] : undefined;
    if (format) params.format = format;
    else errors.add(`fm must be one of jpg, png, webp, avif, got ${JSON.stringify(fm.slice(0, 20))}`);
  }
  errors.throwIfAny('Invalid image parameters');
  return Object.keys(params).length === 0 ? null : params;
}

/** Formats the processor writes when no `fm` is given: the original's, or PNG for others. */
const SAME_FORMAT: Readonly<Record<string, OutputFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

/** Image types the processor decodes; anything else is served as it is. */
export const PROCESSABLE_TYPES: ReadonlySet<string> = new Set([...Object.keys(SAME_FORMAT), 'image/tiff']);

export interface ResolvedParams {
  width?: number;
  height?: number;
  fit: Fit;
  format: OutputFormat;
  /** Only for formats with a quality setting. */
  quality?: number;
}

/**
 * Parameters with every default filled in and every no-op dropped, so requests that produce
 * the same bytes share one cached variant (`fit` only matters with both dimensions, `q` only
 * for lossy formats).
 */
export function resolveParams(params: ImgprocParams, originalType: string): ResolvedParams {
  const format = params.format ?? SAME_FORMAT[originalType] ?? 'png';
  const resolved: ResolvedParams = { fit: params.width && params.height ? (params.fit ?? 'cover') : 'cover', format };
  if (params.width) resolved.width = params.width;
  if (params.height) resolved.height = params.height;
  if (params.quality && (format === 'jpeg' || format === 'webp' || format === 'avif'))
    resolved.quality = params.quality;
  return resolved;
}

/** A stable text form of resolved parameters, the variant's cache key. */
export function variantKey(p: ResolvedParams): string {
  return `w=${p.width ?? ''}&h=${p.height ?? ''}&fit=${p.fit}&fm=${p.format}&q=${p.quality ?? ''}`;
}

export const FORMAT_TYPES: Readonly<Record<OutputFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};
