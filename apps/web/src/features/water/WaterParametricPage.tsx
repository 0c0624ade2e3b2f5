import './i18n/index.ts';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { NotFoundPage } from '../../components/errors/NotFoundPage.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { type WaterParametricCode, WaterParametricTable, waterParametricCodes } from './parametricTables.tsx';

/** /parametrics/{sectors, routes, …}: the water service's parametric tables, one tab each. */
export default function WaterParametricPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const localize = useLocalize();
  const code = pathname.split('/').pop() as WaterParametricCode;
  useAppBar({ title: t('menu.water') });
  if (!waterParametricCodes.includes(code)) return <NotFoundPage missing />;
  return (
    <Box data-testid="water-parametric-page">
      <PageHeader
        title={t(`water.${code}.title`)}
        subtitle={t(`waterUi.parametrics.${code}`)}
        avatar={<WaterDropOutlinedIcon />}
      />
      <Tabs
        value={code}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {waterParametricCodes.map((c) => (
          <Tab
            key={c}
            value={c}
            label={t(`water.${c}.title`)}
            component={Link}
            to={localize(`/parametrics/${c}`)}
            data-testid={`water-tab-${c}`}
          />
        ))}
      </Tabs>
      <WaterParametricTable key={code} code={code} />
    </Box>
  );
}
