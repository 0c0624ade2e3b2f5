import './i18n/index.ts';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { LinkTile } from '../../components/LinkTile.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { settingsScreens } from './registry.ts';

/** /settings: the settings hub (spec §2), Parametrics first, then one card per settings table. */
export default function SettingsHubPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const title = t('settings.hub.title');
  useAppBar({ title });
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('settings.hub.subtitle')}
        avatar={<SettingsOutlinedIcon />}
        testId="settings-hub"
      />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6, lg: 4 }}>
          <LinkTile
            to={localize('/parametrics/protocolBook')}
            icon={TuneOutlinedIcon}
            title={t('menu.parametrics')}
            description={t('settings.screens.protocolBook.description')}
            testId="settings-card-parametrics"
          />
        </Grid>
        {settingsScreens.map((screen) => (
          <Grid key={screen.code} size={{ xs: 12, sm: 6, lg: 4 }}>
            <LinkTile
              to={localize(`/settings/${screen.code}`)}
              icon={screen.icon}
              title={t(screen.titleKey)}
              description={t(screen.descriptionKey)}
              testId={`settings-card-${screen.code}`}
            />
          </Grid>
        ))}
      </Grid>
    </>
  );
}
