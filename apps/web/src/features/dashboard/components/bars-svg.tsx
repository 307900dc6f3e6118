import type { MantineColor } from '@mantine/core';
import { Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';

const cssColor = (color: MantineColor) => `var(--mantine-color-${color.replace('.', '-')})`;

export interface BarSeries<K extends string> {
  name: K;
  label: string;
  color: MantineColor;
}

/** A rounded-up axis maximum with 4 whole-number steps. */
export function niceMax(max: number): number {
  if (max <= 4) return 4;
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  return Math.ceil(step) * 4;
}

/**
 * Grouped bars per category (day), drawn as SVG: a y axis with 4 steps, a label at the first, last
 * and a few days between, a legend in series order, and a tooltip (<title>) per day. Every day has
 * the same slot, so today is drawn like any other day.
 */
export function BarsSvg<K extends string, P extends Record<K, number> & { label: string }>({
  data,
  series,
  height = 230,
  format,
}: {
  data: P[];
  series: BarSeries<K>[];
  height?: number;
  format: (n: number) => string;
}) {
  const { ref, width: measured } = useElementSize();
  const width = measured || 600;
  const left = 36;
  const bottom = 22;
  const top = 8;
  const plotW = width - left - 4;
  const plotH = height - top - bottom;
  const max = niceMax(Math.max(0, ...data.flatMap((p) => series.map((s) => p[s.name]))));
  const slot = plotW / Math.max(data.length, 1);
  const barW = Math.min(10, (slot * 0.8) / series.length);
  const y = (v: number) => top + plotH - (v / max) * plotH;
  // A day label needs about 56 px: fewer labels on a narrow card, never overlapping.
  const labelEvery = Math.max(1, Math.ceil(data.length / Math.max(2, Math.floor(plotW / 56))));
  return (
    <div ref={ref}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        data-chart="bars"
        aria-hidden
        style={{ overflow: 'visible' }}
      >
        {[0, 1, 2, 3, 4].map((i) => {
          const v = (max / 4) * i;
          return (
            <g key={i}>
              <line
                x1={left}
                x2={width}
                y1={y(v)}
                y2={y(v)}
                stroke="var(--mantine-color-default-border)"
                strokeDasharray={i ? '4 4' : undefined}
              />
              <text
                x={left - 6}
                y={y(v)}
                textAnchor="end"
                dominantBaseline="central"
                fontSize={11}
                fill="var(--mantine-color-dimmed)"
              >
                {format(v)}
              </text>
            </g>
          );
        })}
        {data.map((point, i) => {
          const x0 = left + slot * i + (slot - barW * series.length) / 2;
          const showLabel =
            i === data.length - 1 || (i % labelEvery === 0 && data.length - 1 - i >= labelEvery);
          return (
            <g key={point.label} data-day={point.label}>
              <title>{`${point.label}: ${series.map((s) => `${s.label} ${format(point[s.name])}`).join(', ')}`}</title>
              <rect x={left + slot * i} y={top} width={slot} height={plotH} fill="transparent" />
              {series.map((s, j) => {
                const v = point[s.name];
                return (
                  <rect
                    key={s.name}
                    x={x0 + j * barW}
                    y={y(v)}
                    width={Math.max(barW - 1, 1)}
                    height={top + plotH - y(v)}
                    fill={cssColor(s.color)}
                    rx={1}
                  />
                );
              })}
              {showLabel && (
                <text
                  x={left + slot * i + slot / 2}
                  y={height - 6}
                  textAnchor={i === data.length - 1 ? 'end' : i === 0 ? 'start' : 'middle'}
                  fontSize={11}
                  fill="var(--mantine-color-dimmed)"
                >
                  {point.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <Group gap="md" justify="center" mt={6}>
        {series.map((s) => (
          <Group key={s.name} gap={6} wrap="nowrap">
            <span style={{ width: 10, height: 10, borderRadius: 2, background: cssColor(s.color) }} />
            <Text size="xs">{s.label}</Text>
          </Group>
        ))}
      </Group>
    </div>
  );
}
