import Box from '@mui/material/Box';
import InputBase from '@mui/material/InputBase';
import NativeSelect from '@mui/material/NativeSelect';
import Switch from '@mui/material/Switch';
import type { Theme } from '@mui/material/styles';
import { memo, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellValue, RowTableColumn } from './types.ts';

interface Props {
  column: RowTableColumn;
  rowId: number;
  value: CellValue;
  /** Translated error text. */
  error?: string;
  onChange: (rowId: number, column: string, value: CellValue) => void;
  disabled?: boolean;
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

/** One editable cell: text, number, select (a native <select>) or switch; its error shows under it. */
export const RowTableCell = memo(function RowTableCell({
  column,
  rowId,
  value,
  error,
  onChange,
  disabled,
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
  } else if (column.type === 'select') {
    editor = (
      <NativeSelect
        value={value === null || value === undefined ? '' : String(value)}
        disabled={disabled}
        onChange={(event) => onChange(rowId, column.key, event.target.value)}
        input={<InputBase sx={inputSx(Boolean(error))} />}
        inputProps={common as object}
      >
        <option value="">{t('rowTable.choose')}</option>
        {column.options.map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    );
  } else {
    editor = (
      <InputBase
        value={value === null || value === undefined ? '' : String(value)}
        disabled={disabled}
        onChange={(event) => onChange(rowId, column.key, event.target.value)}
        placeholder={column.type === 'text' ? column.placeholder : undefined}
        sx={inputSx(Boolean(error))}
        inputProps={
          {
            ...common,
            inputMode: column.type === 'number' ? 'numeric' : undefined,
            autoComplete: 'off',
            spellCheck: column.type === 'text' ? undefined : false,
            style: column.type === 'number' ? { fontVariantNumeric: 'tabular-nums' } : undefined,
          } as object
        }
      />
    );
  }

  return (
    <Box>
      {editor}
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
