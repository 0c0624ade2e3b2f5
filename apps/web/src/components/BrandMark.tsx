import Box from '@mui/material/Box';

/** The product mark: a water drop in a rounded square. Decorative; the name is always next to it. */
export function BrandMark({ size = 32, inverted = false }: { size?: number; inverted?: boolean }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 64 64"
      aria-hidden
      focusable="false"
      sx={{ width: size, height: size, flexShrink: 0, display: 'block' }}
    >
      <rect width="64" height="64" rx="15" fill={inverted ? 'rgba(255,255,255,0.16)' : '#5000ff'} />
      <path d="M32 11c-8.5 11.5-15 19.6-15 28a15 15 0 0 0 30 0c0-8.4-6.5-16.5-15-28z" fill="#fff" />
      <path d="M32 11c-8.5 11.5-15 19.6-15 28a15 15 0 0 0 15 15z" fill="#00c8fe" opacity="0.85" />
      <path d="M25 41a7 7 0 0 0 7 7" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
    </Box>
  );
}
