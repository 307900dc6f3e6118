import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

/** dayjs with the utc and timezone plugins (IANA zones from the browser's Intl data). */
dayjs.extend(utc);
dayjs.extend(timezone);

export { dayjs };
