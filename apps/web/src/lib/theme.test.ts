import { describe, expect, it } from 'vitest';
import { buildTheme } from './theme.ts';

describe('the theme', () => {
  it('moves nothing where the system asks for reduced motion (WCAG 2.3.3), and animates otherwise', () => {
    const still = buildTheme('light', 'el', true);
    expect(still.transitions.create(['opacity', 'transform'])).toBe('none');
    const moving = buildTheme('light', 'el');
    expect(moving.transitions.create('opacity')).toMatch(/^opacity \d+ms/);
  });
});
