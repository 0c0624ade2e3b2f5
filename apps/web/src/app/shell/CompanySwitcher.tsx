import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import CheckIcon from '@mui/icons-material/Check';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { MENU_RIGHT_ALIGNED, useMenuButton } from '../../components/useMenuButton.ts';
import { useCompany } from '../../lib/company.tsx';

const nameSx = {
  maxWidth: { xs: 120, md: 220 },
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
} as const;

/**
 * The company in use: a menu when the operator works for several companies, its name
 * otherwise. Switching keeps the address; the page mounts anew with the other company's data (lib/company.tsx).
 */
export function CompanySwitcher() {
  const { t } = useTranslation();
  const { company, companies, setCompany } = useCompany();
  const menu = useMenuButton();
  if (!company) return null;

  if (companies.length < 2) {
    return (
      <Box
        data-testid="company-name"
        title={`${t('topbar.company')}: ${company.companytitle}`}
        sx={{ display: { xs: 'none', sm: 'flex' }, alignItems: 'center', gap: 0.75, px: 1, fontSize: 14 }}
      >
        <BusinessOutlinedIcon fontSize="small" aria-hidden />
        <Box component="span" sx={nameSx}>
          {company.companyname}
        </Box>
      </Box>
    );
  }

  return (
    <>
      <Button
        color="inherit"
        data-testid="company-switcher"
        data-company-id={company.id}
        aria-label={`${t('topbar.company')}: ${company.companyname}`}
        {...menu.buttonProps}
        startIcon={<BusinessOutlinedIcon />}
        endIcon={<ExpandMoreIcon />}
        sx={{ textTransform: 'none', fontWeight: 500, minWidth: 0, px: { xs: 1, sm: 1.25 } }}
      >
        <Box component="span" sx={nameSx}>
          {company.companyname}
        </Box>
      </Button>
      <Menu
        {...menu.menuProps}
        {...MENU_RIGHT_ALIGNED}
        slotProps={{ paper: { sx: { minWidth: 260, mt: 0.5 } } }}
      >
        <ListSubheader sx={{ lineHeight: '36px' }}>{t('topbar.companyChoose')}</ListSubheader>
        {companies.map((item) => {
          const current = item.id === company.id;
          return (
            <MenuItem
              key={item.id}
              selected={current}
              aria-current={current ? 'true' : undefined}
              data-testid={`company-option-${item.id}`}
              onClick={() => {
                menu.close();
                if (!current) setCompany(item.id);
              }}
            >
              <ListItemIcon>{current && <CheckIcon fontSize="small" />}</ListItemIcon>
              <ListItemText primary={item.companyname} secondary={item.companytitle} />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
