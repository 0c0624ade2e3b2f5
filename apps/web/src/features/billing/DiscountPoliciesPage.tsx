import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import DiscountOutlinedIcon from '@mui/icons-material/DiscountOutlined';
import Button from '@mui/material/Button';
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
import { billingApi, discountKey, useCoded } from './api.ts';
import { TryPanel } from './TryPanel.tsx';

/** /billing/discount_policies: social tariffs and surcharges, and the "try it" panel. */
export default function DiscountPoliciesPage() {
  const { t } = useTranslation();
  const language = useLang();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const { companyId } = useCompany();
  useAppBar({ title: t('billingUi.discounts.title') });
  const query = useQuery({
    queryKey: [...discountKey, companyId],
    queryFn: ({ signal }) => billingApi.discounts(companyId, signal),
  });
  const regulations = new Map(useCoded('specialRegulations').map((r) => [r.id, r.description]));
  const policies = query.data ?? [];
  return (
    <>
      <PageHeader
        title={t('billingUi.discounts.title')}
        subtitle={t('billingUi.discounts.subtitle')}
        avatar={<DiscountOutlinedIcon />}
        testId="billing-discounts-header"
        actions={
          can('billing:write') ? (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => navigate(localize('/billing/discount_policies/create'))}
              data-testid="billing-discount-new"
            >
              {t('billingUi.discounts.new')}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <Section title={t('billingUi.discounts.title')}>
          <Table size="small" data-testid="billing-discount-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('billingUi.pricing.description')}</TableCell>
                <TableCell>{t('billingUi.discounts.reduction')}</TableCell>
                <TableCell>{t('billingUi.discounts.amount')}</TableCell>
                <TableCell>{t('billingUi.discounts.charges')}</TableCell>
                <TableCell>{t('billingUi.discounts.regulations')}</TableCell>
                <TableCell>{t('billingUi.pricing.validity')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {policies.length === 0 && !query.isLoading && (
                <TableRow>
                  <TableCell colSpan={6}>{t('billingUi.discounts.noneYet')}</TableCell>
                </TableRow>
              )}
              {policies.map((p) => (
                <TableRow
                  key={p.id}
                  hover
                  sx={{ cursor: 'pointer' }}
                  onClick={() => navigate(localize(`/billing/discount_policies/${p.id}/edit`))}
                  data-testid="billing-discount-row"
                >
                  <TableCell>{p.description}</TableCell>
                  <TableCell>{t(`billingUi.discounts.reduction_${p.reduction}`)}</TableCell>
                  <TableCell>
                    {p.amountType === 2
                      ? `${formatDecimal(p.amount, language)}%`
                      : `${formatMoney(p.amount, language)} € / ${t(`billingUi.discounts.calculation_${p.calculation}`)}`}
                  </TableCell>
                  <TableCell>{p.charges.map((c) => t(`billing.charge.${c}`)).join(', ')}</TableCell>
                  <TableCell>
                    {p.specialRegulationIds.map((id) => regulations.get(id) ?? id).join(', ')}
                  </TableCell>
                  <TableCell>
                    {formatDate(p.fromdate)} –{' '}
                    {p.todate ? formatDate(p.todate) : t('billingUi.pricing.always')}
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
