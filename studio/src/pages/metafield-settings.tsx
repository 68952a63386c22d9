import { useBucket } from '../bucket';
import { intOrUndefined, LENGTH_KINDS, OPTION_KINDS, optionsText, parseOptions, REGEX_KINDS } from '../metafield-shape';
import type { Metafield } from '../types';

/** The settings only some kinds take: regex, lengths, options, the related type, the media type. */
export function KindSettings({
  mf,
  set,
  onChange,
}: {
  mf: Metafield;
  set: (patch: Partial<Metafield>) => void;
  onChange: (mf: Metafield) => void;
}) {
  const bucket = useBucket();
  return (
    <>
      {REGEX_KINDS.includes(mf.type) ? (
        <div class="grid">
          <label>
            Regex
            <input
              type="text"
              value={mf.regex ?? ''}
              onInput={(e) => {
                set({ regex: e.currentTarget.value });
              }}
            />
          </label>
          <label>
            Regex message
            <input
              type="text"
              value={mf.regex_message ?? ''}
              onInput={(e) => {
                set({ regex_message: e.currentTarget.value });
              }}
            />
          </label>
        </div>
      ) : null}
      {LENGTH_KINDS.includes(mf.type) ? (
        <div class="grid">
          <label>
            Minimum length
            <input
              type="number"
              min={0}
              value={mf.minlength ?? ''}
              onInput={(e) => {
                set({ minlength: intOrUndefined(e.currentTarget.value) });
              }}
            />
          </label>
          <label>
            Maximum length
            <input
              type="number"
              min={0}
              value={mf.maxlength ?? ''}
              onInput={(e) => {
                set({ maxlength: intOrUndefined(e.currentTarget.value) });
              }}
            />
          </label>
        </div>
      ) : null}
      {OPTION_KINDS.includes(mf.type) ? (
        <label>
          Options (one a line, “key: value” or just the value)
          <textarea
            rows={3}
            value={optionsText(mf.options)}
            onInput={(e) => {
              onChange({ ...mf, options: parseOptions(e.currentTarget.value, mf.type === 'select-dropdown') });
            }}
          />
        </label>
      ) : null}
      {mf.type === 'switch' ? (
        <label>
          Switch labels
          <select
            value={typeof mf.options === 'string' ? mf.options : 'true,false'}
            onChange={(e) => {
              set({ options: e.currentTarget.value });
            }}
          >
            <option value="true,false">true / false</option>
            <option value="yes,no">yes / no</option>
          </select>
        </label>
      ) : null}
      {mf.type === 'object' || mf.type === 'objects' ? (
        <label>
          Related Object type
          <select
            value={mf.object_type ?? ''}
            onChange={(e) => {
              onChange({ ...mf, object_type: e.currentTarget.value });
            }}
          >
            <option value="">(choose)</option>
            {bucket.types.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.title}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {mf.type === 'file' ? (
        <label>
          Media type
          <select
            value={mf.media_validation_type ?? ''}
            onChange={(e) => {
              set({
                media_validation_type: (e.currentTarget.value || undefined) as Metafield['media_validation_type'],
              });
            }}
          >
            <option value="">any</option>
            {['image', 'video', 'audio', 'application', 'text'].map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </>
  );
}
