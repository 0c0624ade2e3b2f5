import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLocalize } from '../../../lib/language.tsx';
import { registrationsList } from './links.ts';

/** Registrations per utility day; a bar opens that day's documents. */
export function RegistrationsChart({ days }: { days: { day: string; count: number }[] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const navigate = useNavigate();
  const localize = useLocalize();
  // DD/MM of a YYYY-MM-DD day: the day is already the utility's, no time zone conversion.
  const label = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
  return (
    <Box sx={{ px: 1 }} data-testid="dashboard-chart">
      <BarChart
        height={240}
        xAxis={[{ scaleType: 'band', data: days.map((d) => d.day), valueFormatter: label }]}
        yAxis={[{ tickMinStep: 1, width: 36 }]}
        series={[{ data: days.map((d) => d.count), label: t('docs.dashboard.chartSeries') }]}
        colors={[theme.palette.mode === 'light' ? theme.palette.primary.main : theme.palette.info.main]}
        hideLegend
        margin={{ top: 16, right: 8, bottom: 8, left: 8 }}
        onItemClick={(_event, item) => {
          const day = days[item.dataIndex]?.day;
          if (day) navigate(localize(registrationsList(null, day)));
        }}
      />
    </Box>
  );
}
