import type { ComponentChildren } from 'preact';
import type { Metafield } from '../types';

export interface FieldProps {
  mf: Metafield;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The API's problem with this field, shown beside it. */
  error?: string | undefined;
  /** A unique id prefix for the control and its descriptions. */
  id: string;
}

/** The ids of the descriptions a control points at (help text, error). */
export function describedBy(props: FieldProps, extra?: string): string | undefined {
  const ids = [props.mf.helptext ? `${props.id}-help` : '', props.error ? `${props.id}-error` : '', extra ?? ''];
  const joined = ids.filter(Boolean).join(' ');
  return joined || undefined;
}

export function Required({ mf }: { mf: Metafield }) {
  return mf.required ? (
    <span class="required" aria-hidden="true">
      {' '}
      *
    </span>
  ) : null;
}

/** Help text and the field's error, below its control. */
export function FieldNotes({ props }: { props: FieldProps }) {
  return (
    <>
      {props.mf.helptext ? (
        <small id={`${props.id}-help`} class="muted">
          {props.mf.helptext}
        </small>
      ) : null}
      {props.error ? (
        <p id={`${props.id}-error`} class="error" role="alert">
          {props.error}
        </p>
      ) : null}
    </>
  );
}

/** A labelled single control: the label's text is the Metafield's title, so is the control's name. */
export function LabelledField({ props, children }: { props: FieldProps; children: ComponentChildren }) {
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={props.id}>
        {props.mf.title}
        <Required mf={props.mf} />
      </label>
      {children}
      <FieldNotes props={props} />
    </div>
  );
}

/** Several controls under one name (radio buttons, check boxes, groups): a fieldset and its legend. */
export function FieldGroup({ props, children }: { props: FieldProps; children: ComponentChildren }) {
  return (
    <fieldset class={`field group${props.error ? ' invalid' : ''}`} aria-describedby={describedBy(props)}>
      <legend>
        {props.mf.title}
        <Required mf={props.mf} />
      </legend>
      {children}
      <FieldNotes props={props} />
    </fieldset>
  );
}
