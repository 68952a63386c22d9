import type { Metafield } from '../types';
import { editValues, type Values } from '../values';
import { FieldGroup, type FieldProps } from './common';
import { FileField } from './media-picker';
import { ObjectField } from './object-picker';
import { HtmlField, JsonField, MarkdownField } from './rich';
import { CheckBoxesField, DateField, NumberField, RadioField, SelectField, SwitchField, TextField } from './simple';

/** The proper control for a Metafield's kind. */
export function Field(props: FieldProps) {
  switch (props.mf.type) {
    case 'text':
    case 'textarea':
      return <TextField {...props} />;
    case 'html-textarea':
      return <HtmlField {...props} />;
    case 'markdown':
      return <MarkdownField {...props} />;
    case 'number':
      return <NumberField {...props} />;
    case 'date':
      return <DateField {...props} />;
    case 'select-dropdown':
      return <SelectField {...props} />;
    case 'radio-buttons':
      return <RadioField {...props} />;
    case 'check-boxes':
      return <CheckBoxesField {...props} />;
    case 'switch':
      return <SwitchField {...props} />;
    case 'json':
      return <JsonField {...props} />;
    case 'file':
      return <FileField {...props} />;
    case 'object':
    case 'objects':
      return <ObjectField {...props} />;
    case 'parent':
      return <ParentField {...props} />;
    case 'repeater':
      return <RepeaterField {...props} />;
  }
}

function asValues(value: unknown): Values {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Values) : {};
}

/** Fields of a list of Metafields over one values object. */
export function Fields({
  metafields,
  values,
  onChange,
  errors,
  idPrefix,
}: {
  metafields: Metafield[];
  values: Values;
  onChange: (values: Values) => void;
  errors?: Record<string, string>;
  idPrefix: string;
}) {
  return (
    <>
      {metafields.map((mf) => (
        <Field
          key={mf.key}
          mf={mf}
          id={`${idPrefix}${mf.key}`}
          value={values[mf.key]}
          error={errors?.[mf.key]}
          onChange={(v) => {
            onChange({ ...values, [mf.key]: v });
          }}
        />
      ))}
    </>
  );
}

function ParentField(props: FieldProps) {
  return (
    <FieldGroup props={props}>
      <Fields
        metafields={props.mf.children ?? []}
        values={asValues(props.value)}
        onChange={props.onChange}
        idPrefix={`${props.id}-`}
      />
    </FieldGroup>
  );
}

function RepeaterField(props: FieldProps) {
  const items = Array.isArray(props.value) ? (props.value as Values[]) : [];
  const fields = props.mf.repeater_fields ?? [];
  const move = (i: number, by: number) => {
    const next = [...items];
    const [item] = next.splice(i, 1);
    if (item) next.splice(i + by, 0, item);
    props.onChange(next);
  };
  return (
    <FieldGroup props={props}>
      {items.map((item, i) => (
        <fieldset key={i} class="repeater-item">
          <legend>
            {props.mf.title} item {i + 1}
          </legend>
          <Fields
            metafields={fields}
            values={item}
            idPrefix={`${props.id}-${i}-`}
            onChange={(v) => {
              props.onChange(items.map((x, j) => (j === i ? v : x)));
            }}
          />
          <div class="row-actions">
            <button
              type="button"
              disabled={i === 0}
              onClick={() => {
                move(i, -1);
              }}
            >
              Move item {i + 1} up
            </button>
            <button
              type="button"
              disabled={i === items.length - 1}
              onClick={() => {
                move(i, 1);
              }}
            >
              Move item {i + 1} down
            </button>
            <button
              type="button"
              onClick={() => {
                props.onChange(items.filter((_, j) => j !== i));
              }}
            >
              Remove item {i + 1}
            </button>
          </div>
        </fieldset>
      ))}
      <button
        type="button"
        onClick={() => {
          props.onChange([...items, editValues(fields, {})]);
        }}
      >
        Add {props.mf.title} item
      </button>
    </FieldGroup>
  );
}
