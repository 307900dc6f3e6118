import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BarsSvg, niceMax } from './bars-svg';
import { DonutSvg } from './donut-svg';

const SERIES = [
  { name: 'sent' as const, label: 'Sent', color: 'blue.6' },
  { name: 'delivered' as const, label: 'Delivered', color: 'teal.6' },
];

describe('svg charts', () => {
  it('gives every day, today included, the same slot and bar width (today is not a sliver at the edge)', () => {
    const data = Array.from({ length: 30 }, (_, i) => ({
      label: `Day ${i + 1}`,
      sent: i === 29 ? 7 : 2,
      delivered: i === 29 ? 6 : 2,
    }));
    const { container } = render(
      <MantineProvider>
        <BarsSvg data={data} series={SERIES} format={String} />
      </MantineProvider>,
    );
    const days = container.querySelectorAll('g[data-day]');
    expect(days).toHaveLength(30);
    const widths = (g: Element) =>
      Array.from(g.querySelectorAll('rect[fill^="var"]')).map((r) => r.getAttribute('width'));
    expect(widths(days[29]!)).toEqual(widths(days[0]!));
    expect(days[29]!.querySelector('title')?.textContent).toBe('Day 30: Sent 7, Delivered 6');
    expect(container).toHaveTextContent('Day 30');
  });

  it('rounds the axis up to whole steps', () => {
    expect(niceMax(0)).toBe(4);
    expect(niceMax(7)).toBe(8);
    expect(niceMax(37)).toBe(40);
    expect(niceMax(1234)).toBe(2000);
  });

  it('draws one arc per slice with the total in the middle', () => {
    const { container } = render(
      <DonutSvg
        data={[
          { name: 'Delivered', value: 3, color: 'teal.6' },
          { name: 'Failed', value: 1, color: 'red.7' },
        ]}
        label="4"
      />,
    );
    expect(container.querySelectorAll('circle')).toHaveLength(2);
    expect(container.querySelector('text')).toHaveTextContent('4');
  });
});
