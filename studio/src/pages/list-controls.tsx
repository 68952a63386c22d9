import { useState } from 'preact/hooks';
import { ObjectField } from '../fields/object-picker';
import { columnsOf, filterableOf, type ListView } from '../list-view';
import type { Metafield, ObjectType } from '../types';
import { optionKey, optionsOf } from '../values';

/** The "Columns" button and the checkboxes it shows: which columns the list has (Title always). */
export function ColumnsControl({
  type,
  columns,
  onColumns,
}: {
  type: ObjectType;
  columns: string[];
  onColumns: (next: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const all = columnsOf(type);
  const toggle = (id: string) => {
    const on = columns.includes(id) ? columns.filter((c) => c !== id) : [...columns, id];
    // Kept in the type's order, so a column lands where it always does.
    onColumns(all.map((c) => c.id).filter((c) => on.includes(c)));
  };
  return (
    <div class="popover-wrap">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="list-columns"
        onClick={() => {
          setOpen(!open);
        }}
      >
        Columns
      </button>
      {open ? (
        <fieldset id="list-columns" class="popover checks-column">
          <legend>Shown columns</legend>
          {all.map((c) => (
            <label key={c.id}>
              <input
                type="checkbox"
                checked={columns.includes(c.id)}
                disabled={c.id === 'title'}
                onChange={() => {
                  toggle(c.id);
                }}
              />
              {c.title}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}

type SetFilter = (name: string, value: string) => void;

function Choice({ mf, value, onFilter }: { mf: Metafield; value: string; onFilter: SetFilter }) {
  const options =
    mf.type === 'switch'
      ? [
          { key: 'yes', label: 'Yes' },
          { key: 'no', label: 'No' },
        ]
      : optionsOf(mf).map((o) => ({
          // Dropdowns match by option key, radio buttons store the value (list-view.ts).
          key: mf.type === 'select-dropdown' ? optionKey(o) : o.value,
          label: o.value,
        }));
  return (
    <label>
      {mf.title}
      <select
        value={value}
        onChange={(e) => {
          onFilter(mf.key, e.currentTarget.value);
        }}
      >
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.key} value={o.key}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function Range({
  mf,
  ends,
  view,
  onFilter,
}: {
  mf: Metafield;
  ends: [string, string];
  view: ListView;
  onFilter: SetFilter;
}) {
  const input = mf.type === 'date' ? 'date' : 'number';
  return (
    <fieldset class="range">
      <legend>{mf.title}</legend>
      {ends.map((end) => (
        <label key={end}>
          {end === 'from' ? 'From' : end === 'to' ? 'To' : end === 'min' ? 'Min' : 'Max'}
          <input
            type={input}
            value={view.filters[`${mf.key}.${end}`] ?? ''}
            onChange={(e) => {
              onFilter(`${mf.key}.${end}`, e.currentTarget.value);
            }}
          />
        </label>
      ))}
    </fieldset>
  );
}

/** One control per filterable Metafield of the type (list-view.ts says how each filters). */
export function MetafieldFilters({ type, view, onFilter }: { type: ObjectType; view: ListView; onFilter: SetFilter }) {
  return (
    <div class="filters">
      {filterableOf(type).map((mf) => {
        const value = view.filters[mf.key] ?? '';
        switch (mf.type) {
          case 'date':
            return <Range key={mf.key} mf={mf} ends={['from', 'to']} view={view} onFilter={onFilter} />;
          case 'number':
            return <Range key={mf.key} mf={mf} ends={['min', 'max']} view={view} onFilter={onFilter} />;
          case 'object':
          case 'objects':
            // The editor's picker, held to one Object: the list shows those related to it.
            return (
              <ObjectField
                key={mf.key}
                id={`filter-${mf.key}`}
                mf={{ ...mf, type: 'object', required: false, helptext: '' }}
                value={value}
                onChange={(next) => {
                  onFilter(mf.key, typeof next === 'string' ? next : '');
                }}
              />
            );
          default:
            return <Choice key={mf.key} mf={mf} value={value} onFilter={onFilter} />;
        }
      })}
    </div>
  );
}
