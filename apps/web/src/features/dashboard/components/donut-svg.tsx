import type { MantineColor } from '@mantine/core';

const cssColor = (color: MantineColor) => `var(--mantine-color-${color.replace('.', '-')})`;

export interface DonutSlice {
  name: string;
  value: number;
  color: MantineColor;
}

/**
 * A donut of slices, drawn as SVG arcs (stroke-dasharray on circles): a few hundred bytes instead of
 * a chart library. Each slice has a tooltip (<title>); the wrapper gives the accessible summary.
 */
export function DonutSvg({
  data,
  label,
  size = 150,
  thickness = 22,
  gap = 2,
}: {
  data: DonutSlice[];
  label: string;
  size?: number;
  thickness?: number;
  gap?: number;
}) {
  const r = (size - thickness) / 2;
  const circumference = 2 * Math.PI * r;
  const total = data.reduce((n, s) => n + s.value, 0);
  const gapLength = data.length > 1 ? gap : 0;
  let offset = 0;
  return (
    <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} data-chart="donut" aria-hidden>
      <g transform={`rotate(-90 ${size / 2} ${size / 2})`}>
        {data.map((slice) => {
          const length = total ? (slice.value / total) * circumference : 0;
          const drawn = Math.max(length - gapLength, Math.min(length, 1));
          const circle = (
            <circle
              key={slice.name}
              cx={size / 2}
              cy={size / 2}
              r={r}
              fill="none"
              stroke={cssColor(slice.color)}
              strokeWidth={thickness}
              strokeDasharray={`${drawn} ${circumference - drawn}`}
              strokeDashoffset={-offset}
            >
              <title>{`${slice.name}: ${slice.value}`}</title>
            </circle>
          );
          offset += length;
          return circle;
        })}
      </g>
      <text
        x="50%"
        y="50%"
        textAnchor="middle"
        dominantBaseline="central"
        fill="var(--mantine-color-text)"
        style={{ fontSize: 'var(--mantine-font-size-xl)', fontWeight: 700 }}
      >
        {label}
      </text>
    </svg>
  );
}
