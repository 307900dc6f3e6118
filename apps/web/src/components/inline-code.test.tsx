import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { InlineCode } from './inline-code';

const html = (text: string) =>
  render(
    <MantineProvider>
      <p>
        <InlineCode text={text} />
      </p>
    </MantineProvider>,
  ).container.querySelector('p')!;

describe('InlineCode', () => {
  it('renders backtick spans as <code>, without the backticks', () => {
    const p = html('A parameter is missing or not valid; `param` names it.');
    expect(p.textContent).toBe('A parameter is missing or not valid; param names it.');
    expect([...p.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['param']);
  });

  it('handles several spans, one at the start, and text without any', () => {
    const p = html('`from` and `to` are phone numbers');
    expect([...p.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['from', 'to']);
    expect(p.textContent).toBe('from and to are phone numbers');
    expect(html('No code here.').innerHTML).toBe('No code here.');
  });

  it('leaves a lone backtick as it is', () => {
    expect(html('a ` b').textContent).toBe('a ` b');
  });
});
