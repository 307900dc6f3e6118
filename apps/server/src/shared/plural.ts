/** `n` with its noun, singular for one: "1 session", "3 sessions" (`many` for irregular plurals). */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
