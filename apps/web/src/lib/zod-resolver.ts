import type { z } from 'zod';

/** Validates @mantine/form values with a zod schema: field path → first message. */
export function zodResolver<T>(schema: z.ZodType<T>) {
  return (values: unknown): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      errors[path] ??= issue.message;
    }
    return errors;
  };
}
