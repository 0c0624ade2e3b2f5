import ArticleOutlinedIcon from '@mui/icons-material/ArticleOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import GridOnOutlinedIcon from '@mui/icons-material/GridOnOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import TextSnippetOutlinedIcon from '@mui/icons-material/TextSnippetOutlined';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { EntityCatalog, ExportFormat } from '@protocol/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadExport } from '../../components/DataTable/exporting.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';

const FORMATS: { format: ExportFormat; icon: ReactNode }[] = [
  { format: 'pdf', icon: <PictureAsPdfOutlinedIcon fontSize="small" /> },
  { format: 'excel', icon: <GridOnOutlinedIcon fontSize="small" /> },
  { format: 'csv', icon: <TextSnippetOutlinedIcon fontSize="small" /> },
  { format: 'word', icon: <ArticleOutlinedIcon fontSize="small" /> },
];

/** The exports of a row-table screen: POST /api/export over the table's /search list (saved rows). */
export function ExportMenu({ uri, catalog, title }: { uri: string; catalog: EntityCatalog; title: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const notify = useNotify();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState<ExportFormat | null>(null);

  const run = async (format: ExportFormat) => {
    setAnchor(null);
    setBusy(format);
    try {
      const columns = catalog.fields.filter((f) => f.exportable && !f.hiddenByDefault).map((f) => f.id);
      await downloadExport({ uri, format, columns, lang, title });
    } catch (failure) {
      notify(errorMessage(t, failure), 'error');
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        size="small"
        startIcon={<FileDownloadOutlinedIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
        loading={busy !== null}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        data-testid="settings-export"
      >
        {t('settings.export.button')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {FORMATS.map((item) => (
          <MenuItem
            key={item.format}
            onClick={() => void run(item.format)}
            data-testid={`settings-export-${item.format}`}
          >
            <ListItemIcon>{item.icon}</ListItemIcon>
            {t(`settings.export.${item.format}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
