import Box from '@mui/material/Box';
import InputBase from '@mui/material/InputBase';
import NativeSelect from '@mui/material/NativeSelect';
import Switch from '@mui/material/Switch';
import type { Theme } from '@mui/material/styles';
import { memo, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellValue, DraftRow, RowTableColumn } from './types.ts';
import { cellTypeOf } from './validate.ts';

interface Props {
  column: RowTableColumn;
  rowId: number;
  value: CellValue;
  /** Translated error text. */
  error?: string;
  onChange: (rowId: number, column: string, value: CellValue) => void;
  disabled?: boolean;
  /** The row, for a column whose editor depends on it (`cellType`); its other cells leave it out. */
  row?: DraftRow;
}

/** Height of an editor, so checkboxes and switches line up with the text of the inputs. */
export const CELL_HEIGHT = 33;

const inputSx = (error: boolean) => (theme: Theme) => ({
  width: '100%',
  fontSize: 14,
  borderRadius: 1,
  border: '1px solid',
  borderColor: error ? theme.palette.error.main : 'transparent',
  bgcolor: error
    ? `${theme.palette.error.main}12`
    : theme.palette.mode === 'light'
      ? 'rgba(20, 20, 60, 0.035)'
      : 'rgba(255, 255, 255, 0.05)',
  transition: theme.transitions.create(['border-color', 'background-color', 'box-shadow'], {
    duration: theme.transitions.duration.shortest,
  }),
  '&:hover': { borderColor: error ? theme.palette.error.main : theme.palette.divider },
  '&.Mui-focused': {
    borderColor: error ? theme.palette.error.main : theme.palette.primary.main,
    bgcolor: theme.palette.background.paper,
    boxShadow: `0 0 0 2px ${error ? theme.palette.error.main : theme.palette.primary.main}33`,
  },
  '& input, & select': { px: 1, py: '5px', height: 'auto' },
  '& select': { pr: '28px !important' },
});

const text = (value: CellValue) => (value === null || value === undefined ? '' : String(value));

/**
 * One editable cell: text, number, select (a native <select>) or switch; its error shows under it.
 * A text column's `cellType` picks the editor per row: an integer input, a switch storing
 * 'true' / 'false', an e-mail or URL input, a select; the value stays text.
 */
export const RowTableCell = memo(function RowTableCell({
  column,
  rowId,
  value,
  error,
  onChange,
  disabled,
  row,
}: Props) {
  const { t } = useTranslation();
  const errorId = useId();
  const testId = `cell-${column.key}-${rowId}`;
  const cellKey = `${column.key}:${rowId}`;
  const common = {
    'data-testid': testId,
    'data-cell': cellKey,
    'aria-label': column.label,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    'aria-required': column.required || undefined,
  };

  const cellType = cellTypeOf(column, row);
  const options =
    cellType?.type === 'select' ? cellType.options : column.type === 'select' ? column.options : null;

  let editor: ReactNode;
  if (column.type === 'boolean') {
    editor = (
      <Box sx={{ height: CELL_HEIGHT, display: 'flex', alignItems: 'center' }}>
        <Switch
          size="small"
          checked={Boolean(value)}
          disabled={disabled}
          onChange={(event) => onChange(rowId, column.key, event.target.checked)}
          slotProps={{ input: { ...common, role: 'switch' } as object }}
        />
      </Box>
    );
  } else if (cellType?.type === 'boolean') {
    // Text 'true' / 'false'; an empty value is "not set", anything else is shown as it is.
    const current = text(value).trim();
    const state =
      current === 'true'
        ? t('rowTable.yes')
        : current === 'false'
          ? t('rowTable.no')
          : current === ''
            ? t('rowTable.notSet')
            : `«${current}»`;
    editor = (
      <Box sx={{ height: CELL_HEIGHT, display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Switch
          size="small"
          checked={current === 'true'}
          disabled={disabled}
          onChange={(event) => onChange(rowId, column.key, event.target.checked ? 'true' : 'false')}
          slotProps={{ input: { ...common, role: 'switch' } as object }}
        />
        <Box
          component="span"
          data-testid={`cell-state-${column.key}-${rowId}`}
          sx={{
            fontSize: 13,
            color: current === 'true' ? 'text.primary' : error ? 'error.main' : 'text.secondary',
            fontStyle: current === '' ? 'italic' : undefined,
          }}
        >
          {state}
        </Box>
      </Box>
    );
  } else if (options) {
    editor = (
      <NativeSelect
        value={text(value)}
        disabled={disabled}
        onChange={(event) => onChange(rowId, column.key, event.target.value)}
        input={<InputBase sx={inputSx(Boolean(error))} />}
        inputProps={common as object}
      >
        <option value="">{t('rowTable.choose')}</option>
        {options.map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    );
  } else {
    const kind = cellType?.type ?? column.type;
    const numeric = kind === 'number' || kind === 'integer' || kind === 'decimal';
    const placeholder =
      cellType && 'placeholder' in cellType
        ? cellType.placeholder
        : column.type === 'text'
          ? column.placeholder
          : undefined;
    editor = (
      <InputBase
        value={text(value)}
        disabled={disabled}
        onChange={(event) => onChange(rowId, column.key, event.target.value)}
        placeholder={placeholder}
        type={kind === 'integer' ? 'number' : 'text'}
        sx={inputSx(Boolean(error))}
        inputProps={
          {
            ...common,
            inputMode:
              kind === 'decimal'
                ? 'decimal'
                : numeric
                  ? 'numeric'
                  : kind === 'email'
                    ? 'email'
                    : kind === 'url'
                      ? 'url'
                      : undefined,
            ...(cellType?.type === 'integer' ? { min: cellType.min, max: cellType.max, step: 1 } : {}),
            autoComplete: 'off',
            autoCapitalize: kind === 'email' || kind === 'url' ? 'none' : undefined,
            spellCheck: kind === 'text' ? undefined : false,
            style: numeric
              ? { fontVariantNumeric: 'tabular-nums', textAlign: kind === 'decimal' ? 'right' : undefined }
              : undefined,
          } as object
        }
      />
    );
  }

  const note = column.type === 'text' && row ? column.note?.(row) : undefined;
  return (
    <Box>
      {editor}
      {note && (
        <Box
          data-testid={`cell-note-${column.key}-${rowId}`}
          sx={{ color: 'text.secondary', fontSize: 12, lineHeight: 1.3, mt: 0.25, px: 1 }}
        >
          {note}
        </Box>
      )}
      {error && (
        <Box
          id={errorId}
          role="alert"
          data-testid={`cell-error-${column.key}-${rowId}`}
          sx={{ color: 'error.main', fontSize: 12, lineHeight: 1.3, mt: 0.25, px: 1 }}
        >
          {error}
        </Box>
      )}
    </Box>
  );
});
