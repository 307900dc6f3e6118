import { z } from 'zod';
import { safeString } from './text';

/**
 * Send windows (issue 41 item 1): the days and hours, in each recipient's own local time, in which
 * a campaign's messages may go. Days are ISO weekdays: 1 Monday … 7 Sunday. `start` and `end` are
 * local wall-clock times, HH:MM; `end` may be 24:00 (until midnight). An overnight window
 * (`overnight: true`, end before start, such as 22:00–06:00) opens on its days and closes the next
 * morning.
 */
export const SEND_WINDOW_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const SEND_WINDOW_DAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeField = (allowMidnight: boolean) =>
  safeString().refine((v) => TIME.test(v) || (allowMidnight && v === '24:00'), {
    message: allowMidnight ? 'Enter a time as HH:MM (00:00–24:00)' : 'Enter a time as HH:MM (00:00–23:59)',
  });

/** Minutes after local midnight of an HH:MM (24:00 is 1440). */
export const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
};

export const sendWindowSchema = z
  .object({
    days: z
      .array(z.number().int().min(1, 'Unknown day').max(7, 'Unknown day'))
      .min(1, 'Pick at least one day')
      .max(7)
      .refine((d) => new Set(d).size === d.length, 'A day is listed twice'),
    start: timeField(false),
    end: timeField(true),
    /** The window runs past midnight: it ends, the next day, at `end` (before `start`). */
    overnight: z.boolean().default(false),
  })
  .superRefine((w, ctx) => {
    if (!TIME.test(w.start) || !(TIME.test(w.end) || w.end === '24:00')) return;
    const start = minutesOf(w.start);
    const end = minutesOf(w.end);
    if (start === end || (start === 0 && end === 1440)) {
      ctx.addIssue({
        code: 'custom',
        path: ['end'],
        message: 'The window must end at another time than it starts (for all day, send without a window)',
      });
    } else if (!w.overnight && end < start) {
      ctx.addIssue({
        code: 'custom',
        path: ['end'],
        message: 'The window must end after it starts (or choose overnight for a window past midnight)',
      });
    } else if (w.overnight && end > start) {
      ctx.addIssue({
        code: 'custom',
        path: ['end'],
        message: 'An overnight window ends the next day, before the time it starts',
      });
    }
  });
export type SendWindow = z.infer<typeof sendWindowSchema>;

/** The account's send-window settings, as a member with sender-ids:manage sets them. */
export const sendWindowSettingsSchema = z.object({
  /** The campaigns' default window; null: campaigns send at any hour unless they set one. */
  window: sendWindowSchema.nullable(),
  /** Single sends (the Send SMS screen, POST /v1/messages) wait for the window too. OTP never does. */
  applyToSingle: z.boolean().default(false),
});
export type SendWindowSettings = z.infer<typeof sendWindowSettingsSchema>;

export const sendWindowSettingsDtoSchema = z.object({
  window: sendWindowSchema.nullable(),
  applyToSingle: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type SendWindowSettingsDto = z.infer<typeof sendWindowSettingsDtoSchema>;

/** What the estimate says of a campaign's window: recipients per time zone and when each opens. */
export const sendWindowsSummarySchema = z.object({
  window: sendWindowSchema,
  /** Where the window comes from: the campaign's own, or the account's default. */
  source: z.enum(['campaign', 'account']),
  /** The zone of numbers whose own cannot be told (unknown, or several): the campaign's. */
  fallbackZone: z.string(),
  zones: z.array(
    z.object({
      timeZone: z.string(),
      recipients: z.number(),
      /** Numbers counted here because their own zone could not be told. */
      fallback: z.boolean(),
      /** When the window opens for them (ISO 8601, UTC); the send time if open then. */
      opensAt: z.string(),
      /** The same in the zone's local time, `YYYY-MM-DD HH:MM`. */
      opensAtLocal: z.string(),
      openNow: z.boolean(),
    }),
  ),
  /** When the last zone's window opens: the last recipients are sent from then on. */
  lastSendAt: z.string().nullable(),
});
export type SendWindowsSummary = z.infer<typeof sendWindowsSummarySchema>;

export const SEND_WINDOWS_API = {
  settings: '/api/settings/send-window',
} as const;

/** "Mon–Fri 09:00–20:00" */
export function describeSendWindow(w: SendWindow): string {
  const days = [...w.days].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < days.length;) {
    let j = i;
    while (j + 1 < days.length && days[j + 1] === days[j] + 1) j += 1;
    const a = SEND_WINDOW_DAY_LABELS[days[i] - 1];
    const b = SEND_WINDOW_DAY_LABELS[days[j] - 1];
    runs.push(j === i ? a : j === i + 1 ? `${a}, ${b}` : `${a}–${b}`);
    i = j + 1;
  }
  return `${runs.join(', ')} ${w.start}–${w.end}${w.overnight ? ' (overnight)' : ''}`;
}
