import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ComponentType } from 'react';
import { Link as RouterLink } from 'react-router';

interface Props {
  /** Where the tile leads (already localised). */
  to: string;
  icon: ComponentType;
  title: string;
  description: string;
  testId: string;
}

/** A card that links to a screen: icon, title, one line of description and an arrow. */
export function LinkTile({ to, icon: Icon, title, description, testId }: Props) {
  return (
    <Card
      variant="outlined"
      sx={{
        height: '100%',
        transition: 'box-shadow .2s, border-color .2s',
        '&:hover': { boxShadow: 4, borderColor: 'primary.main' },
      }}
    >
      <CardActionArea component={RouterLink} to={to} data-testid={testId} sx={{ height: '100%' }}>
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', p: 2.5 }}>
          <Box
            sx={(theme) => ({
              width: 48,
              height: 48,
              flexShrink: 0,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              color: theme.palette.mode === 'light' ? 'primary.main' : 'primary.light',
              bgcolor: theme.palette.mode === 'light' ? 'rgba(80, 0, 255, 0.08)' : 'rgba(0, 200, 254, 0.12)',
            })}
          >
            <Icon />
          </Box>
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography variant="h3" sx={{ fontSize: '1.05rem', mb: 0.5 }}>
              {title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {description}
            </Typography>
          </Box>
          <ArrowForwardIcon fontSize="small" sx={{ color: 'text.secondary', mt: 0.5 }} />
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
