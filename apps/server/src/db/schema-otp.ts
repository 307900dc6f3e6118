import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns';

/** OTP services, their verifications and the ranges the velocity guard blocked (issue #12, 0010). */
export interface OtpTables {
  otp_services: {
    id: Generated<string>;
    account_id: string;
    name: string;
    sender_id: Generated<string>;
    template: string;
    code_length: number;
    code_type: 'numeric' | 'alphanumeric';
    ttl_minutes: number;
    max_attempts: number;
    send_limit: number;
    send_window_minutes: number;
    resend_cooldown_seconds: number;
    allowed_countries: string[];
    velocity_max_sends: number;
    velocity_window_minutes: number;
    velocity_range_digits: number;
    created_at: Generated<Date>;
    updated_at: Timestamp;
  };
  otp_verifications: {
    id: string;
    service_id: string;
    account_id: string;
    recipient: string;
    range_prefix: string;
    code_hash: Buffer | null;
    /** HMAC of `<service id>:<E.164>:<code>` (0017): decides a check by number in one statement. */
    recipient_code_hash: Buffer | null;
    status: 'pending' | 'approved' | 'expired' | 'max_attempts_reached' | 'canceled' | 'blocked';
    attempts: Generated<number>;
    max_attempts: number;
    message_id: string | null;
    blocked_reason: string | null;
    created_at: Timestamp;
    expires_at: Timestamp;
    approved_at: NullableTimestamp;
    /** The API key that asked for the code (0029); null for a session's send and older rows. */
    api_key_id: string | null;
  };
  otp_blocked_ranges: {
    service_id: string;
    range_prefix: string;
    reason: string;
    blocked_at: Timestamp;
    blocked_until: Timestamp;
  };
}
