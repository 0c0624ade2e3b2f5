import CloseIcon from '@mui/icons-material/Close';
import FilterListIcon from '@mui/icons-material/FilterList';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  Decimal,
  decimalText,
  type FieldDef,
  type FilterOperator,
  optionLabel,
  parseDecimal,
} from '@protocol/contracts';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FORMAT } from '../../lib/dates.ts';
import type { FilterValue } from './state.ts';

dayjs.extend(customParseFormat);

const TYPING_DELAY_MS = 400;

const inputSx = {
  '& .MuiInputBase-root': { fontSize: 13, bgcolor: 'background.paper' },
  '& .MuiInputBase-input': { py: '5px', px: 1 },
  '& .MuiNativeSelect-select': { py: '5px', pl: 1 },
} as const;

export interface HeaderFilterProps {
  field: FieldDef;
  label: string;
  values: FilterValue[];
  onChange: (values: FilterValue[], typing?: boolean) => void;
}

/** The filter under a column header, by the field's type (text, number/date range, enum, boolean). */
export function HeaderFilter(props: HeaderFilterProps) {
  const { field } = props;
  const ranged = field.filters.includes('gte') && field.filters.includes('lte');
  if (field.type === 'enum' || field.type === 'boolean') return <SelectFilter {...props} />;
  if ((field.type === 'date' || field.type === 'number' || field.type === 'money') && ranged) {
    return <RangeFilter {...props} />;
  }
  return <TextFilter {...props} />;
}

function TextFilter({ field, label, values, onChange }: HeaderFilterProps) {
  const { t } = useTranslation();
  const op: FilterOperator = field.filters.includes('contains') ? 'contains' : 'eq';
  const committed = values.find((item) => item.op === op)?.value ?? '';
  const [text, setText] = useState(committed);
  const last = useRef(committed);

  // A new committed value from outside (a view chosen, back/forward): show it.
  useEffect(() => {
    if (committed !== last.current) {
      last.current = committed;
      setText(committed);
    }
  }, [committed]);

  useEffect(() => {
    if (text === last.current) return;
    const timer = setTimeout(() => {
      last.current = text;
      onChange(text.trim() ? [{ op, value: text.trim() }] : [], true);
    }, TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, op, onChange]);

  const numeric = field.type === 'number' || field.type === 'money';
  return (
    <TextField
      size="small"
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder={t('table.filter.placeholder')}
      sx={inputSx}
      slotProps={{
        htmlInput: {
          'data-testid': `filter-${field.id}`,
          'aria-label': t('table.filter.label', { column: label }),
          inputMode: numeric ? 'decimal' : undefined,
        },
        input: {
          endAdornment: text ? (
            <InputAdornment position="end" sx={{ ml: 0 }}>
              <IconButton
                size="small"
                edge="end"
                aria-label={t('table.filter.clear', { column: label })}
                onClick={() => setText('')}
                sx={{ p: 0.25 }}
              >
                <CloseIcon sx={{ fontSize: 14 }} />
              </IconButton>
            </InputAdornment>
          ) : undefined,
        },
      }}
    />
  );
}

function SelectFilter({ field, label, values, onChange }: HeaderFilterProps) {
  const { t } = useTranslation();
  const value = values.find((item) => item.op === 'eq')?.value ?? '';
  const options =
    field.type === 'boolean'
      ? [
          { value: 'true', label: t('common.yes') },
          { value: 'false', label: t('common.no') },
        ]
      : (field.options ?? []).map((option) => ({ value: option.value, label: optionLabel(option, t) }));
  return (
    <TextField
      select
      size="small"
      value={value}
      onChange={(event) => onChange(event.target.value ? [{ op: 'eq', value: event.target.value }] : [])}
      sx={inputSx}
      slotProps={{
        select: { native: true },
        htmlInput: {
          'data-testid': `filter-${field.id}`,
          'aria-label': t('table.filter.label', { column: label }),
        },
      }}
    >
      <option value="">{t('table.filter.all')}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </TextField>
  );
}

/** DD/MM/YYYY (also D/M/YYYY) to YYYY-MM-DD; '' for empty, null when not a date. */
export function parseDisplayDate(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return '';
  const date = dayjs(trimmed, ['DD/MM/YYYY', 'D/M/YYYY', 'DD-MM-YYYY', 'DD.MM.YYYY'], true);
  return date.isValid() ? date.format('YYYY-MM-DD') : null;
}

function toDisplay(field: FieldDef, wire: string): string {
  if (!wire || field.type !== 'date') return wire;
  const date = dayjs(wire, 'YYYY-MM-DD', true);
  return date.isValid() ? date.format(DATE_FORMAT) : wire;
}

/**
 * A bound of a range filter as sent: a date as YYYY-MM-DD, a number or amount as a person writes it
 * ("1.234,5", "1234.5") read by the money engine into a plain decimal; '' when empty, null when unreadable.
 */
export function rangeBound(text: string, isDate: boolean): string | null {
  if (isDate) return parseDisplayDate(text);
  if (!text.trim()) return '';
  return decimalText(parseDecimal(text));
}

function RangeFilter({ field, label, values, onChange }: HeaderFilterProps) {
  const { t } = useTranslation();
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const from = values.find((item) => item.op === 'gte')?.value ?? '';
  const to = values.find((item) => item.op === 'lte')?.value ?? '';
  const [fromText, setFromText] = useState('');
  const [toText, setToText] = useState('');
  const [error, setError] = useState<'from' | 'to' | 'order' | null>(null);
  const isDate = field.type === 'date';

  const open = (target: HTMLElement) => {
    setFromText(toDisplay(field, from));
    setToText(toDisplay(field, to));
    setError(null);
    setAnchor(target);
  };

  const parse = (text: string) => rangeBound(text, isDate);

  const apply = () => {
    const fromValue = parse(fromText);
    const toValue = parse(toText);
    if (fromValue === null) return setError('from');
    if (toValue === null) return setError('to');
    if (fromValue && toValue) {
      const wrong = isDate ? fromValue > toValue : new Decimal(fromValue).gt(toValue);
      if (wrong) return setError('order');
    }
    const next: FilterValue[] = [];
    if (fromValue) next.push({ op: 'gte', value: fromValue });
    if (toValue) next.push({ op: 'lte', value: toValue });
    onChange(next);
    setAnchor(null);
  };

  const clear = () => {
    onChange([]);
    setAnchor(null);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      apply();
    }
  };

  const summary =
    from || to
      ? `${from ? toDisplay(field, from) : '…'} – ${to ? toDisplay(field, to) : '…'}`
      : t('table.filter.range');
  const hint = isDate ? t('common.dateHint') : undefined;

  return (
    <>
      <ButtonBase
        data-testid={`filter-${field.id}`}
        aria-label={t('table.filter.rangeLabel', { column: label, summary })}
        aria-haspopup="dialog"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? id : undefined}
        onClick={(event) => open(event.currentTarget)}
        sx={(theme) => ({
          width: '100%',
          justifyContent: 'space-between',
          gap: 0.5,
          px: 1,
          py: '5px',
          fontSize: 13,
          borderRadius: 1,
          border: `1px solid ${from || to ? theme.palette.primary.main : theme.palette.divider}`,
          bgcolor: 'background.paper',
          color: from || to ? 'text.primary' : 'text.secondary',
          '&:hover': { borderColor: 'text.primary' },
          '&.Mui-focusVisible': { outline: `2px solid ${theme.palette.primary.main}` },
        })}
      >
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {summary}
        </Box>
        <FilterListIcon sx={{ fontSize: 15, color: from || to ? 'primary.main' : 'text.disabled' }} />
      </ButtonBase>
      <Popover
        id={id}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{
          paper: { role: 'dialog', 'aria-label': t('table.filter.label', { column: label }) } as object,
        }}
      >
        <Box sx={{ p: 2, width: 260 }}>
          <Typography variant="subtitle2" sx={{ mb: 1.5 }}>
            {label}
          </Typography>
          <Stack spacing={1.5}>
            <TextField
              size="small"
              label={t('table.filter.from')}
              value={fromText}
              autoFocus
              onChange={(event) => setFromText(event.target.value)}
              onKeyDown={onKeyDown}
              placeholder={isDate ? t('common.dateHint') : undefined}
              error={error === 'from' || error === 'order'}
              helperText={error === 'from' ? t('table.filter.invalid') : hint}
              slotProps={{
                htmlInput: {
                  'data-testid': `filter-${field.id}-from`,
                  inputMode: isDate ? 'numeric' : 'decimal',
                },
              }}
            />
            <TextField
              size="small"
              label={t('table.filter.to')}
              value={toText}
              onChange={(event) => setToText(event.target.value)}
              onKeyDown={onKeyDown}
              placeholder={isDate ? t('common.dateHint') : undefined}
              error={error === 'to' || error === 'order'}
              helperText={
                error === 'to'
                  ? t('table.filter.invalid')
                  : error === 'order'
                    ? t('table.filter.order')
                    : undefined
              }
              slotProps={{
                htmlInput: {
                  'data-testid': `filter-${field.id}-to`,
                  inputMode: isDate ? 'numeric' : 'decimal',
                },
              }}
            />
          </Stack>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 2 }}>
            <Button size="small" color="inherit" onClick={clear} data-testid={`filter-${field.id}-clear`}>
              {t('table.filter.clearAction')}
            </Button>
            <Button size="small" variant="contained" onClick={apply} data-testid={`filter-${field.id}-apply`}>
              {t('table.filter.apply')}
            </Button>
          </Box>
        </Box>
      </Popover>
    </>
  );
}
