import { describedBy, FieldGroup, LabelledField, type FieldProps } from './common';
import { optionKey, optionsOf } from '../values';

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A length counter announced politely, against maxlength when there is one. */
function Counter({ props }: { props: FieldProps }) {
  const { minlength, maxlength } = props.mf;
  const length = str(props.value).length;
  const over = (maxlength !== undefined && length > maxlength) || (minlength !== undefined && length < minlength);
  return (
    <small id={`${props.id}-count`} class={`counter${over ? ' over' : ''}`}>
      {length}
      {maxlength !== undefined ? ` / ${maxlength}` : ''} characters
      {minlength !== undefined ? ` (at least ${minlength})` : ''}
    </small>
  );
}

export function TextField(props: FieldProps) {
  const { mf } = props;
  const common = {
    id: props.id,
    value: str(props.value),
    required: mf.required,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy(props, `${props.id}-count`),
    onInput: (e: Event) => {
      props.onChange((e.currentTarget as HTMLInputElement).value);
    },
  };
  return (
    <LabelledField props={props}>
      {mf.type === 'textarea' ? <textarea rows={5} {...common} /> : <input type="text" {...common} />}
      <Counter props={props} />
    </LabelledField>
  );
}

/** A field whose value is its control's text as typed: numbers and dates. */
function TypedInput({ props, type }: { props: FieldProps; type: 'number' | 'date' }) {
  return (
    <LabelledField props={props}>
      <input
        id={props.id}
        type={type}
        step={type === 'number' ? 'any' : undefined}
        value={str(props.value)}
        required={props.mf.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props)}
        onInput={(e) => {
          props.onChange(e.currentTarget.value);
        }}
      />
    </LabelledField>
  );
}

export function NumberField(props: FieldProps) {
  return <TypedInput props={props} type="number" />;
}

export function DateField(props: FieldProps) {
  return <TypedInput props={props} type="date" />;
}

export function SelectField(props: FieldProps) {
  return (
    <LabelledField props={props}>
      <select
        id={props.id}
        value={str(props.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props)}
        onChange={(e) => {
          props.onChange(e.currentTarget.value);
        }}
      >
        <option value="">(none)</option>
        {optionsOf(props.mf).map((o) => (
          <option key={optionKey(o)} value={optionKey(o)}>
            {o.value}
          </option>
        ))}
      </select>
    </LabelledField>
  );
}

export function RadioField(props: FieldProps) {
  return (
    <FieldGroup props={props}>
      <div role="radiogroup" aria-label={props.mf.title} class="choices">
        {optionsOf(props.mf).map((o, i) => (
          <label key={o.value} class="choice">
            <input
              type="radio"
              name={props.id}
              id={`${props.id}-${i}`}
              checked={props.value === o.value}
              onChange={() => {
                props.onChange(o.value);
              }}
            />
            {o.value}
          </label>
        ))}
      </div>
    </FieldGroup>
  );
}

export function CheckBoxesField(props: FieldProps) {
  const chosen = Array.isArray(props.value) ? (props.value as string[]) : [];
  return (
    <FieldGroup props={props}>
      <div class="choices">
        {optionsOf(props.mf).map((o) => (
          <label key={o.value} class="choice">
            <input
              type="checkbox"
              checked={chosen.includes(o.value)}
              onChange={(e) => {
                props.onChange(e.currentTarget.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value));
              }}
            />
            {o.value}
          </label>
        ))}
      </div>
    </FieldGroup>
  );
}

export function SwitchField(props: FieldProps) {
  const [on, off] = typeof props.mf.options === 'string' ? props.mf.options.split(',') : ['true', 'false'];
  return (
    <div class={`field switch${props.error ? ' invalid' : ''}`}>
      <label class="choice">
        <input
          id={props.id}
          type="checkbox"
          role="switch"
          checked={props.value === true}
          aria-describedby={describedBy(props)}
          onChange={(e) => {
            props.onChange(e.currentTarget.checked);
          }}
        />
        {props.mf.title}
      </label>
      <small class="muted" aria-hidden="true">
        {props.value === true ? on : off}
      </small>
      {props.error ? (
        <p id={`${props.id}-error`} class="error" role="alert">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
