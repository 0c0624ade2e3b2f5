import AddIcon from '@mui/icons-material/Add';
import ArticleOutlinedIcon from '@mui/icons-material/ArticleOutlined';
import ChecklistIcon from '@mui/icons-material/Checklist';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import GridOnOutlinedIcon from '@mui/icons-material/GridOnOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import TextSnippetOutlinedIcon from '@mui/icons-material/TextSnippetOutlined';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import type { ExportFormat } from '@protocol/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuButton } from '../useMenuButton.ts';

/** A getForEntity entry: a company's own export of the list. */
export interface CustomExport {
  label: string;
  uri: string;
}

export interface ActionBarProps {
  onCreate?: () => void;
  onRefresh: () => void;
  refreshing: boolean;
  onDelete?: () => void;
  selectedCount: number;
  onExport: (format: ExportFormat) => void;
  exporting: ExportFormat | 'custom' | null;
  /** The company's own exports of this list; the menu is hidden when there are none. */
  customExports: CustomExport[];
  onCustomExport: (entry: CustomExport) => void;
  onPrint: () => void;
  showSelected: boolean;
  onToggleSelected: () => void;
}

function Action({
  label,
  name = label,
  testId,
  onClick,
  disabled,
  children,
  pressed,
}: {
  label: string;
  /** The accessible name, when the button shows text of its own (it must contain it, WCAG 2.5.3). */
  name?: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
  pressed?: boolean;
}) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton
          size="small"
          aria-label={name}
          aria-pressed={pressed}
          data-testid={testId}
          onClick={onClick}
          disabled={disabled}
          color={pressed ? 'primary' : 'default'}
          sx={{ borderRadius: 1.5 }}
        >
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

const MAX_BADGE = 999;

/** The company's own exports of the list (settings `export.*`), each exactly as the company defined it. */
function CustomExportsMenu({
  entries,
  busy,
  disabled,
  onExport,
}: {
  entries: CustomExport[];
  busy: boolean;
  disabled: boolean;
  onExport: (entry: CustomExport) => void;
}) {
  const { t } = useTranslation();
  const menu = useMenuButton();
  return (
    <>
      <Tooltip title={t('export.custom')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('export.custom')}
            data-testid="action-custom-exports"
            disabled={disabled}
            sx={{ borderRadius: 1.5 }}
            {...menu.buttonProps}
          >
            {busy ? <CircularProgress size={18} /> : <FileDownloadOutlinedIcon fontSize="small" />}
          </IconButton>
        </span>
      </Tooltip>
      <Menu {...menu.menuProps}>
        <ListSubheader sx={{ lineHeight: '32px' }}>{t('export.customTitle')}</ListSubheader>
        {entries.map((entry) => (
          <MenuItem
            key={entry.uri}
            data-testid="custom-export"
            onClick={() => {
              menu.close();
              onExport(entry);
            }}
          >
            <ListItemIcon>
              <FileDownloadOutlinedIcon fontSize="small" />
            </ListItemIcon>
            {entry.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

const EXPORTS: { format: ExportFormat; testId: string; icon: ReactNode }[] = [
  { format: 'pdf', testId: 'action-pdf', icon: <PictureAsPdfOutlinedIcon fontSize="small" /> },
  { format: 'excel', testId: 'action-excel', icon: <GridOnOutlinedIcon fontSize="small" /> },
  { format: 'csv', testId: 'action-csv', icon: <TextSnippetOutlinedIcon fontSize="small" /> },
  { format: 'word', testId: 'action-word', icon: <ArticleOutlinedIcon fontSize="small" /> },
];

/** Spec §2 list actions: create, refresh, mass delete, PDF, Excel, CSV (and Word), print, show selected. */
export function ActionBar(props: ActionBarProps) {
  const { t } = useTranslation();
  return (
    <>
      {props.onCreate && (
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          onClick={props.onCreate}
          data-testid="action-create"
          sx={{ mr: 1 }}
        >
          {t('table.actions.create')}
        </Button>
      )}
      <Action label={t('table.actions.refresh')} testId="action-refresh" onClick={props.onRefresh}>
        {props.refreshing ? <CircularProgress size={18} /> : <RefreshIcon fontSize="small" />}
      </Action>
      {props.onDelete && (
        <Action
          label={t('table.actions.delete', { count: props.selectedCount })}
          testId="action-delete"
          onClick={props.onDelete}
          disabled={props.selectedCount === 0}
        >
          <DeleteOutlineIcon fontSize="small" />
        </Action>
      )}
      <Divider orientation="vertical" flexItem sx={{ mx: 0.75, my: 0.5 }} />
      {EXPORTS.map((item) => (
        <Action
          key={item.format}
          label={t(`export.${item.format}`)}
          testId={item.testId}
          onClick={() => props.onExport(item.format)}
          disabled={props.exporting !== null}
        >
          {props.exporting === item.format ? <CircularProgress size={18} /> : item.icon}
        </Action>
      ))}
      {props.customExports.length > 0 && (
        <CustomExportsMenu
          entries={props.customExports}
          busy={props.exporting === 'custom'}
          disabled={props.exporting !== null}
          onExport={props.onCustomExport}
        />
      )}
      <Action label={t('table.actions.print')} testId="action-print" onClick={props.onPrint}>
        <PrintOutlinedIcon fontSize="small" />
      </Action>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.75, my: 0.5 }} />
      <Action
        label={t('table.actions.showSelected')}
        name={t('table.actions.showSelectedCount', {
          count: props.selectedCount > MAX_BADGE ? `${MAX_BADGE}+` : props.selectedCount,
        })}
        testId="action-selected"
        onClick={props.onToggleSelected}
        pressed={props.showSelected}
      >
        <Badge badgeContent={props.selectedCount} color="primary" max={MAX_BADGE}>
          <ChecklistIcon fontSize="small" />
        </Badge>
      </Action>
    </>
  );
}
