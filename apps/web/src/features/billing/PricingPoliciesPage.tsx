import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import PriceChangeOutlinedIcon from '@mui/icons-material/PriceChangeOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDecimal, formatMoney } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCompany } from '../../app/company.tsx';
import { useLang, useLocalize } from '../../app/language.tsx';
import { useCan } from '../../app/permissions.ts';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { Section } from '../../components/form/fields.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDate } from '../../lib/dates.ts';
import { billingApi, pricingKey } from './api.ts';
import { TryPanel } from './TryPanel.tsx';

/** /billing/pricing_policies: the tariffs per property usage and validity, and the "try it" panel. */
export default function PricingPoliciesPage() {
  const { t } = useTranslation();
  const language = useLang();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const { companyId } = useCompany();
  useAppBar({ title: t('billingUi.pricing.title') });
  const query = useQuery({
    queryKey: [...pricingKey, companyId],
    queryFn: ({ signal }) => billingApi.pricing(companyId, signal),
  });
  const policies = query.data ?? [];
  return (
    <>
      <PageHeader
        title={t('billingUi.pricing.title')}
        subtitle={t('billingUi.pricing.subtitle')}
        avatar={<PriceChangeOutlinedIcon />}
        testId="billing-pricing-header"
        actions={
          can('billing:write') ? (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => navigate(localize('/billing/pricing_policies/create'))}
              data-testid="billing-pricing-new"
            >
              {t('billingUi.pricing.new')}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <Section title={t('billingUi.pricing.title')}>
          <Table size="small" data-testid="billing-pricing-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('billingUi.pricing.description')}</TableCell>
                <TableCell>{t('billingUi.pricing.usage')}</TableCell>
                <TableCell>{t('billingUi.pricing.validity')}</TableCell>
                <TableCell>{t('billingUi.pricing.bandsShort')}</TableCell>
                <TableCell>{t('billingUi.pricing.sewerage')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {policies.length === 0 && !query.isLoading && (
                <TableRow>
                  <TableCell colSpan={5}>{t('billingUi.pricing.noneYet')}</TableCell>
                </TableRow>
              )}
              {policies.map((p) => (
                <TableRow
                  key={p.id}
                  hover
                  sx={{ cursor: 'pointer' }}
                  onClick={() => navigate(localize(`/billing/pricing_policies/${p.id}/edit`))}
                  data-testid="billing-pricing-row"
                >
                  <TableCell>
                    {p.description}{' '}
                    {!p.active && <Chip size="small" variant="outlined" label="—" sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell>{p.propertyUsage}</TableCell>
                  <TableCell>
                    {formatDate(p.fromdate)} –{' '}
                    {p.todate ? formatDate(p.todate) : t('billingUi.pricing.always')}
                  </TableCell>
                  <TableCell>
                    {p.bands
                      .map((b) =>
                        b.upTo === null
                          ? `${formatMoney(b.price, language, 2)} €`
                          : `≤${formatDecimal(b.upTo, language)}: ${formatMoney(b.price, language, 2)} €`,
                      )
                      .join(' · ')}
                  </TableCell>
                  <TableCell>
                    {p.sewerageMode === 'percent'
                      ? `${formatDecimal(p.sewerageValue, language)}%`
                      : p.sewerageMode === 'perCubicMetre'
                        ? `${formatMoney(p.sewerageValue, language, 2)} €/m³`
                        : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Section>
        <TryPanel />
      </Stack>
    </>
  );
}
