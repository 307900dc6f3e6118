import { HttpError } from './http/http-error';

interface FormLike {
  setErrors: (errors: Record<string, string>) => void;
  values: object;
}

/**
 * Puts a failed submit's 400 field errors on the form's own fields and returns the message
 * still to show elsewhere (errors for other fields, or any other failure), or null.
 */
export function applySubmitError(form: FormLike, error: unknown): string | null {
  if (!(error instanceof HttpError) || !Object.keys(error.fieldErrors).length) {
    return error instanceof Error ? error.message : String(error);
  }
  const onForm: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    if (field in form.values) onForm[field] = messages.join(' ');
    else elsewhere.push(...messages);
  }
  form.setErrors(onForm);
  return elsewhere.length ? elsewhere.join('\n') : null;
}
