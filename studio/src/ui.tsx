import type { ComponentChildren, TargetedInputEvent } from 'preact';

/** A text field of a submitted form ('' when absent). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** An error as text on the page, announced to screen readers. */
export function ErrorText({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

export function Notice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="notice" role="status">
      {message}
    </p>
  );
}

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1>{title}</h1>
      <div class="actions">{children}</div>
    </header>
  );
}

interface TextInputProps {
  label: string;
  value: string;
  onValue: (value: string) => void;
  required?: boolean;
  pattern?: string;
  placeholder?: string;
  /** `search` for the lists' search boxes. */
  type?: 'text' | 'search';
  /** The label's class (layout). */
  labelClass?: string;
}

/** A one-line text (or search) input inside its label, which names it for assistive technology (and tests). */
export function TextInput({
  label,
  value,
  onValue,
  required,
  pattern,
  placeholder,
  type = 'text',
  labelClass,
}: TextInputProps) {
  const input = (e: TargetedInputEvent<HTMLInputElement>) => {
    onValue(e.currentTarget.value);
  };
  return (
    <label class={labelClass}>
      {label}
      {type === 'search' ? (
        <input type="search" value={value} placeholder={placeholder} onInput={input} />
      ) : (
        <input
          type="text"
          value={value}
          required={required}
          pattern={pattern}
          placeholder={placeholder}
          onInput={input}
        />
      )}
    </label>
  );
}

/**
 * "Skip to content", the first stop of the Tab key: past the bars and the navigation to the
 * page's main region. Every page has one `main`; it takes focus without entering the Tab order.
 */
export function SkipLink() {
  const skip = (e: MouseEvent) => {
    const main = document.querySelector('main');
    if (!main) return;
    e.preventDefault();
    main.tabIndex = -1;
    main.focus();
  };
  return (
    <a class="skip-link" href="#main" onClick={skip}>
      Skip to content
    </a>
  );
}
