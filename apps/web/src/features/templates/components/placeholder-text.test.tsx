import { describe, expect, it } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { PlaceholderText } from './placeholder-text';

describe('PlaceholderText', () => {
  it('shows each placeholder as a badge, keeping the text around it', () => {
    const { container, getByTestId } = render(
      <MantineProvider env="test">
        <PlaceholderText text={'Hi {{name}},\nyour code is {{ code }}.'} data-testid="text" />
      </MantineProvider>,
    );
    const badges = [...container.querySelectorAll('[data-placeholder]')];
    expect(badges.map((b) => b.getAttribute('data-placeholder'))).toEqual(['name', 'code']);
    expect(badges[0]).toHaveTextContent('placeholder name');
    expect(getByTestId('text').textContent).toBe('Hi placeholder name,\nyour code is placeholder code.');
  });
});
