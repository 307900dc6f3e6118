import { z } from 'zod';

/**
 * A form's schema with a `confirmPassword` field that must repeat `field` ("Passwords do not
 * match" on the confirmation otherwise); `required` is its message when left empty.
 */
export function withPasswordConfirmation<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  field: keyof Shape & string,
  required: string,
) {
  return schema
    .extend({ confirmPassword: z.string().min(1, required) })
    .refine((v: Record<string, unknown>) => v[field] === v.confirmPassword, {
      message: 'Passwords do not match',
      path: ['confirmPassword'],
    });
}
