import type { ComponentChildren } from 'preact';

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
}

/** A one-line text input inside its label, which names it for assistive technology (and tests). */
export function TextInput({ label, value, onValue, required, pattern, placeholder }: TextInputProps) {
  return (
    <label>
      {label}
      <input
        type="text"
        value={value}
        required={required}
        pattern={pattern}
        placeholder={placeholder}
        onInput={(e) => {
          onValue(e.currentTarget.value);
        }}
      />
    </label>
  );
}
