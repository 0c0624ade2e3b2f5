import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import {
  type DocumentTotals,
  formatMoney,
  type Item,
  type Service,
  type TaxKind,
  taxKinds,
} from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../lib/language.tsx';
import { emptyLine, type LineDraft, newKey, type TaxDraft, typed } from './documentDraft.ts';

type Errors = Record<string, string>;

const cell = { py: 0.5, px: 0.75, verticalAlign: 'top' } as const;

function Amount({
  value,
  onChange,
  error,
  disabled,
  testId,
  width = 90,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled: boolean;
  testId: string;
  width?: number;
}) {
  return (
    <TextField
      value={value}
      onChange={(event) => onChange(event.target.value)}
      size="small"
      error={Boolean(error)}
      helperText={error}
      disabled={disabled}
      slotProps={{
        htmlInput: { inputMode: 'decimal', style: { textAlign: 'right' }, 'data-testid': testId },
      }}
      sx={{ width }}
    />
  );
}

/** The lines of services or items: picking one fills its description, price and VAT. */
export function DocumentLines({
  lines,
  onChange,
  services,
  items,
  totals,
  errors,
  readOnly,
}: {
  lines: LineDraft[];
  onChange: (lines: LineDraft[]) => void;
  services: Service[];
  items: Item[];
  totals: DocumentTotals;
  errors: Errors;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const set = (index: number, patch: Partial<LineDraft>) =>
    onChange(lines.map((line, i) => (i === index ? { ...line, ...patch } : line)));
  const pick = (index: number, source: LineDraft['source'], id: number) => {
    if (source === 'service') {
      const service = services.find((s) => s.id === id);
      set(index, {
        serviceId: id,
        itemId: null,
        descr: service?.descr ?? '',
        price: typed(service?.price ?? '0', lang),
        vatPercent: typed(service?.vatPercent ?? '24', lang, 0),
      });
    } else {
      const item = items.find((s) => s.id === id);
      set(index, {
        itemId: id,
        serviceId: null,
        descr: item?.descr ?? '',
        price: typed(item?.salePrice ?? '0', lang),
        vatPercent: typed(item?.vatPercent ?? '24', lang, 0),
      });
    }
  };
  const error = (index: number, field: string) => errors[`lines.${index}.${field}`];
  return (
    <Stack spacing={1}>
      <Table size="small" data-testid="document-lines">
        <TableHead>
          <TableRow>
            <TableCell sx={cell}>{t('finance.form.source')}</TableCell>
            <TableCell sx={cell}>{t('finance.form.product')}</TableCell>
            <TableCell sx={cell}>{t('finance.documents.line')}</TableCell>
            <TableCell sx={cell} align="right">
              {t('finance.documents.quantity')}
            </TableCell>
            <TableCell sx={cell} align="right">
              {t('finance.documents.price')}
            </TableCell>
            <TableCell sx={cell} align="right">
              {t('finance.documents.discount')}
            </TableCell>
            <TableCell sx={cell} align="right">
              {t('finance.documents.vatPercent')}
            </TableCell>
            <TableCell sx={cell} align="right">
              {t('finance.documents.net')}
            </TableCell>
            <TableCell sx={cell} align="right">
              {t('finance.documents.lineTotal')}
            </TableCell>
            <TableCell sx={cell} />
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line, index) => {
            const options = line.source === 'service' ? services : items;
            const chosen = line.source === 'service' ? line.serviceId : line.itemId;
            const amounts = totals.lines[index];
            return (
              <TableRow key={line.key} data-testid={`document-line-${index}`}>
                <TableCell sx={cell}>
                  <TextField
                    select
                    size="small"
                    value={line.source}
                    disabled={readOnly}
                    onChange={(event) =>
                      set(index, {
                        source: event.target.value as LineDraft['source'],
                        serviceId: null,
                        itemId: null,
                      })
                    }
                    slotProps={{ htmlInput: { 'data-testid': `line-source-${index}` } }}
                    sx={{ width: 120 }}
                  >
                    <MenuItem value="service">{t('finance.form.service')}</MenuItem>
                    <MenuItem value="item">{t('finance.form.item')}</MenuItem>
                  </TextField>
                </TableCell>
                <TableCell sx={cell}>
                  <TextField
                    select
                    size="small"
                    value={chosen ?? ''}
                    disabled={readOnly}
                    error={Boolean(error(index, 'serviceId') ?? error(index, 'itemId'))}
                    helperText={error(index, 'serviceId') ?? error(index, 'itemId')}
                    onChange={(event) => pick(index, line.source, Number(event.target.value))}
                    slotProps={{ htmlInput: { 'data-testid': `line-product-${index}` } }}
                    sx={{ width: 170 }}
                  >
                    {options
                      .filter((o) => o.active || o.id === chosen)
                      .map((o) => (
                        <MenuItem key={o.id} value={o.id} data-testid={`line-option-${o.code}`}>
                          {o.code} · {o.descr}
                        </MenuItem>
                      ))}
                  </TextField>
                </TableCell>
                <TableCell sx={cell}>
                  <TextField
                    size="small"
                    value={line.descr}
                    disabled={readOnly}
                    onChange={(event) => set(index, { descr: event.target.value })}
                    slotProps={{ htmlInput: { maxLength: 300, 'data-testid': `line-descr-${index}` } }}
                    sx={{ minWidth: 200 }}
                    fullWidth
                  />
                </TableCell>
                <TableCell sx={cell} align="right">
                  <Amount
                    value={line.quantity}
                    onChange={(v) => set(index, { quantity: v })}
                    error={error(index, 'quantity')}
                    disabled={readOnly}
                    testId={`line-quantity-${index}`}
                    width={80}
                  />
                </TableCell>
                <TableCell sx={cell} align="right">
                  <Amount
                    value={line.price}
                    onChange={(v) => set(index, { price: v })}
                    error={error(index, 'price')}
                    disabled={readOnly}
                    testId={`line-price-${index}`}
                  />
                </TableCell>
                <TableCell sx={cell} align="right">
                  <Amount
                    value={line.discount}
                    onChange={(v) => set(index, { discount: v })}
                    error={error(index, 'discount')}
                    disabled={readOnly}
                    testId={`line-discount-${index}`}
                    width={70}
                  />
                </TableCell>
                <TableCell sx={cell} align="right">
                  <Amount
                    value={line.vatPercent}
                    onChange={(v) => set(index, { vatPercent: v })}
                    error={error(index, 'vatPercent')}
                    disabled={readOnly}
                    testId={`line-vat-${index}`}
                    width={70}
                  />
                </TableCell>
                <TableCell sx={{ ...cell, pt: 1.5 }} align="right" data-testid={`line-net-${index}`}>
                  {formatMoney(amounts?.net ?? 0, lang)}
                </TableCell>
                <TableCell sx={{ ...cell, pt: 1.5 }} align="right">
                  {formatMoney(amounts?.total ?? 0, lang)}
                </TableCell>
                <TableCell sx={cell}>
                  {!readOnly && lines.length > 1 && (
                    <Tooltip title={t('finance.form.removeLine')}>
                      <IconButton size="small" onClick={() => onChange(lines.filter((_, i) => i !== index))}>
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {!readOnly && (
        <Button
          startIcon={<AddIcon />}
          onClick={() => onChange([...lines, emptyLine()])}
          sx={{ alignSelf: 'flex-start' }}
          data-testid="add-line"
        >
          {t('finance.form.addLine')}
        </Button>
      )}
    </Stack>
  );
}

/** Taxes by kind (1 tax … 6 interest charge): a percentage of the net, or a fixed amount. */
export function DocumentTaxes({
  taxes,
  onChange,
  totals,
  errors,
  readOnly,
}: {
  taxes: TaxDraft[];
  onChange: (taxes: TaxDraft[]) => void;
  totals: DocumentTotals;
  errors: Errors;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const set = (index: number, patch: Partial<TaxDraft>) =>
    onChange(taxes.map((tax, i) => (i === index ? { ...tax, ...patch } : tax)));
  return (
    <Stack spacing={1} data-testid="document-taxes">
      {taxes.map((tax, index) => (
        <Stack
          key={tax.key}
          direction="row"
          spacing={1}
          sx={{ alignItems: 'flex-start' }}
          data-testid={`document-tax-${index}`}
        >
          <TextField
            select
            size="small"
            label={t('finance.form.taxKind')}
            value={tax.kind}
            disabled={readOnly}
            onChange={(event) => set(index, { kind: Number(event.target.value) as TaxKind })}
            slotProps={{ htmlInput: { 'data-testid': `tax-kind-${index}` } }}
            sx={{ width: 220 }}
          >
            {taxKinds.map((kind) => (
              <MenuItem key={kind} value={kind} data-testid={`tax-kind-option-${kind}`}>
                {t(`finance.documents.taxKind_${kind}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={t('finance.form.taxPercent')}
            value={tax.percent}
            disabled={readOnly}
            error={Boolean(errors[`taxes.${index}.percent`])}
            helperText={errors[`taxes.${index}.percent`]}
            onChange={(event) => set(index, { percent: event.target.value })}
            slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': `tax-percent-${index}` } }}
            sx={{ width: 120 }}
          />
          <TextField
            size="small"
            label={t('finance.form.taxAmount')}
            value={tax.percent.trim() ? formatMoney(totals.taxes[index] ?? 0, lang) : tax.amount}
            disabled={readOnly || Boolean(tax.percent.trim())}
            error={Boolean(errors[`taxes.${index}.amount`])}
            helperText={errors[`taxes.${index}.amount`]}
            onChange={(event) => set(index, { amount: event.target.value })}
            slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': `tax-amount-${index}` } }}
            sx={{ width: 140 }}
          />
          {!readOnly && (
            <IconButton
              size="small"
              sx={{ mt: 0.5 }}
              onClick={() => onChange(taxes.filter((_, i) => i !== index))}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          )}
        </Stack>
      ))}
      {!readOnly && (
        <Button
          startIcon={<AddIcon />}
          onClick={() => onChange([...taxes, { key: newKey(), kind: 3, percent: '', amount: '' }])}
          sx={{ alignSelf: 'flex-start' }}
          data-testid="add-tax"
        >
          {t('finance.form.addTax')}
        </Button>
      )}
    </Stack>
  );
}
