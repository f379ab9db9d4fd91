-- El libro diario (asientos) que se lleva la gestoría: la cuenta de gasto del Plan General
-- Contable de cada categoría (la editan los administradores), las subcuentas de acreedores,
-- personas y bancos (un número estable, asignado la primera vez que aparecen) y los apuntes de un
-- periodo, calculados aquí para los dos backends. docs/contabilidad.md explica cada decisión.

-- ---------------------------------------------------------------------------------------------
-- La cuenta de gasto de cada categoría: de 3 a 8 cifras del grupo 6 («629» o «62900003»); la
-- subcuenta es la cuenta completada con ceros a la derecha hasta 8 cifras.
-- ---------------------------------------------------------------------------------------------
alter table public.categorias_fiscales
  add column cuenta_gasto text not null default '629'
    constraint categorias_fiscales_cuenta_gasto_check check (cuenta_gasto ~ '^6[0-9]{2,7}$');
grant update (cuenta_gasto) on public.categorias_fiscales to authenticated;

-- Sin disparadores: son los valores de partida, no una edición de nadie.
alter table public.categorias_fiscales disable trigger user;
update public.categorias_fiscales c
   set cuenta_gasto = v.cuenta
  from (values
    ('alojamiento', '629'),                -- gastos de viaje del personal
    ('comidas', '629'),
    ('viajes_transporte', '629'),
    ('combustible', '628'),                -- suministros
    ('aparcamiento_peajes', '629'),
    ('material_oficina', '629'),           -- gastos de oficina
    ('telefonia_internet', '628'),
    ('software_suscripciones', '629'),
    ('formacion', '629'),
    ('atenciones_clientes', '627'),        -- publicidad, propaganda y relaciones públicas
    ('mensajeria', '624'),                 -- transportes
    ('mantenimiento_reparaciones', '622'), -- reparaciones y conservación
    ('servicios_profesionales', '623'),    -- servicios de profesionales independientes
    ('otros', '629')
  ) as v (categoria, cuenta)
 where c.categoria = v.categoria;
alter table public.categorias_fiscales enable trigger user;

-- Lo que un gasto aprobado lleva a los libros se fija al aprobarlo: la cuenta de gasto de su
-- categoría, la deducibilidad de su IVA (porcentaje y motivo, que interno.deducibilidad lee) y,
-- en un kilometraje o una dieta, su parte exenta y la sujeta de IRPF (que lee interno.irpf); y
-- su número de recepción en el libro de IVA, que no se suelta (20261212000001_datos_fiscales).
-- Cambiar después la cuenta o la deducibilidad de una categoría, el país de un proveedor o un
-- límite exento vale para lo que se apruebe desde entonces: un diario ya exportado, un libro de
-- IVA ya presentado o un informe de IRPF salen igual otra vez. Si vuelve a pendiente (revocar),
-- se suelta. Tras los disparadores gastos_* (los BEFORE van por orden alfabético), con la
-- categoría y el desglose finales.
alter table public.gastos add column cuenta_al_aprobar text;

create function interno.fijar_al_aprobar() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  d interno.deducibilidad;
  i interno.irpf;
  v_al_aprobar boolean := true;
begin
  if new.estado not in ('aprobado', 'pagado') then
    new.cuenta_al_aprobar := null;
    new.porcentaje_deducible_al_aprobar := null;
    new.motivo_al_aprobar := null;
    new.irpf_exento_al_aprobar := null;
    new.irpf_sujeto_al_aprobar := null;
    new.irpf_explicacion_al_aprobar := null;
    return new;
  end if;
  if tg_op = 'UPDATE' then
    if old.estado in ('aprobado', 'pagado') then
      -- Ya aprobado: lo fijado no cambia (nadie más que esta función lo escribe).
      new.cuenta_al_aprobar := old.cuenta_al_aprobar;
      new.porcentaje_deducible_al_aprobar := old.porcentaje_deducible_al_aprobar;
      new.motivo_al_aprobar := old.motivo_al_aprobar;
      new.irpf_exento_al_aprobar := old.irpf_exento_al_aprobar;
      new.irpf_sujeto_al_aprobar := old.irpf_sujeto_al_aprobar;
      new.irpf_explicacion_al_aprobar := old.irpf_explicacion_al_aprobar;
      v_al_aprobar := false;
    end if;
  end if;
  if v_al_aprobar then
    -- Soltado antes de calcular: interno.deducibilidad e interno.irpf leen lo fijado si lo hay.
    new.porcentaje_deducible_al_aprobar := null;
    new.irpf_sujeto_al_aprobar := null;
    new.cuenta_al_aprobar := (select c.cuenta_gasto from public.categorias_fiscales c where c.categoria = new.categoria);
    d := interno.deducibilidad(new);
    new.porcentaje_deducible_al_aprobar := d.porcentaje;
    new.motivo_al_aprobar := d.motivo;
    i := interno.irpf(new);
    new.irpf_exento_al_aprobar := i.exento;
    new.irpf_sujeto_al_aprobar := i.sujeto;
    new.irpf_explicacion_al_aprobar := i.explicacion;
  end if;
  -- También si el desglose llega después (un administrador lo corrige en uno ya aprobado).
  if jsonb_array_length(new.desglose_iva) > 0
     and (new.numero_recepcion is null
          or split_part(new.numero_recepcion, '-', 2)::integer <> extract(year from new.fecha_gasto)) then
    new.numero_recepcion := interno.folio_siguiente('interno.recepcion_contador', 'REC',
      extract(year from new.fecha_gasto)::integer, 5);
  end if;
  return new;
end
$$;
create trigger libros_al_aprobar before insert or update on public.gastos
  for each row execute function interno.fijar_al_aprobar();

-- El nombre de las cuentas de gasto del PGC que se usan para gastos de empresa (el título de su
-- subcuenta en el diario); otra cuenta del grupo 6, «Cuenta 6xx».
create function interno.nombre_cuenta_gasto(p_cuenta text) returns text language sql immutable set search_path = '' as $$
  select coalesce(case left(p_cuenta, 3)
    when '600' then 'Compras de mercaderías'
    when '602' then 'Compras de otros aprovisionamientos'
    when '621' then 'Arrendamientos y cánones'
    when '622' then 'Reparaciones y conservación'
    when '623' then 'Servicios de profesionales independientes'
    when '624' then 'Transportes'
    when '625' then 'Primas de seguros'
    when '626' then 'Servicios bancarios y similares'
    when '627' then 'Publicidad, propaganda y relaciones públicas'
    when '628' then 'Suministros'
    when '629' then 'Otros servicios'
    when '631' then 'Otros tributos'
    when '640' then 'Sueldos y salarios'
    when '649' then 'Otros gastos sociales'
    when '678' then 'Gastos excepcionales'
  end, 'Cuenta ' || left(p_cuenta, 3))
$$;

-- ---------------------------------------------------------------------------------------------
-- Subcuentas numeradas: 410 (un acreedor por NIF), 465 (una persona), 572 (una cuenta de la
-- empresa). Cuenta + número de 5 cifras = 8 cifras («41000007»). El número se asigna la primera
-- vez que la subcuenta aparece en un diario y no cambia después: la gestoría la da de alta una
-- vez. El 0 de 410 es «Acreedores varios» (un emisor sin NIF), y no está en la tabla.
-- ---------------------------------------------------------------------------------------------
create table interno.subcuentas (
  cuenta text not null
    constraint subcuentas_cuenta_check check (cuenta in ('410', '465', '572')),
  -- 410: «pais:nif»; 465: el id de la persona; 572: el id de la cuenta de la empresa.
  clave text not null,
  numero integer not null
    constraint subcuentas_numero_check check (numero between 1 and 99999),
  creado_en timestamptz not null default now(),
  constraint subcuentas_pkey primary key (cuenta, clave),
  constraint subcuentas_cuenta_numero_key unique (cuenta, numero)
);
alter table interno.subcuentas enable row level security; -- sin políticas: solo sus funciones
revoke all on interno.subcuentas from public, anon, authenticated;

-- Lo que pide cada lectura del libro diario: un administrador, y un periodo con sus dos fechas,
-- en orden.
create function interno.exigir_diario(p_desde date, p_hasta date) returns void
language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_admin('Solo un administrador puede ver y descargar el libro diario.');
  if p_desde is null then
    raise exception using errcode = 'OFINV', detail = 'desde', message = 'Indique la fecha «Desde» del periodo.';
  end if;
  if p_hasta is null then
    raise exception using errcode = 'OFINV', detail = 'hasta', message = 'Indique la fecha «Hasta» del periodo.';
  end if;
  if p_desde > p_hasta then
    raise exception using errcode = 'OFINV', detail = 'hasta',
      message = 'La fecha «Hasta» debe ser igual o posterior a la fecha «Desde».';
  end if;
  -- La aplicación lee un periodo mes a mes: acotar sus meses acota las llamadas de una petición.
  if (extract(year from p_hasta) * 12 + extract(month from p_hasta))
     - (extract(year from p_desde) * 12 + extract(month from p_desde)) >= 24 then
    raise exception using errcode = 'OFINV', detail = 'hasta',
      message = 'El libro diario abarca como mucho 24 meses: acorte el periodo.';
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Los movimientos de un periodo, antes de numerar: un asiento por gasto aprobado o pagado con
-- fecha_gasto en el periodo (el devengo, como el libro de IVA) y uno por remesa confirmada con
-- fecha de ejecución en el periodo. `clave`: la de su subcuenta numerada (410, 465, 572);
-- `subcuenta`: la que no se numera (gasto, 472, 555, 570, 41000000).
--
-- Gasto:   debe  cuenta de gasto de su categoría   base + IVA no deducible + otros no sujetos
--          debe  472000tt (tt: el tipo)            cuota deducible de cada tipo
--          haber 4771tttt, con inversión del       cuota de cada tipo (la declara la empresa:
--                sujeto pasivo                     no es parte del importe)
--          haber según cómo se pagó               importe
--                 efectivo, tarjeta personal       465 + la persona (se le debe)
--                 transferencia, domiciliación,    410 + el NIF del proveedor o del emisor
--                 cheque                          (41000000 sin NIF)
--                 tarjeta corporativa              55500001 (hasta aplicar el extracto de la tarjeta)
--                 caja chica                       57000001
-- Remesa:  debe  465/410 de cada beneficiario      lo que se le paga
--          haber 572 + la cuenta de la empresa     el total
-- ---------------------------------------------------------------------------------------------
create function interno.movimientos_diario(p_desde date, p_hasta date)
returns table (fecha date, tipo integer, documento text, orden integer, cuenta text, clave text, subcuenta text,
  titulo text, concepto text, debe numeric, haber numeric, contra_cuenta text, contra_clave text,
  contra_subcuenta text, base_imponible numeric, porcentaje_iva numeric, nif text, numero_factura text)
language sql stable security definer set search_path = '' as $$
  with g as (
    select g.id, g.folio, g.fecha_gasto, g.descripcion, g.importe, g.metodo_pago, g.solicitante_id,
           g.numero_factura, g.desglose_iva, g.fecha_expedicion, g.inversion_sujeto_pasivo,
           -- La cuota que declara la empresa: la de las líneas del desglose, como las de la 477.
           case when g.inversion_sujeto_pasivo
                then (select coalesce(sum((l ->> 'cuota')::numeric), 0) from jsonb_array_elements(g.desglose_iva) l)
                else 0 end as autorepercutido,
           d.importe as deducible, d.porcentaje as porcentaje_deducible,
           case when g.clase in ('kilometraje', 'dieta') then (interno.irpf(g)).sujeto else 0 end as sujeto_irpf,
           rpad(coalesce(g.cuenta_al_aprobar, c.cuenta_gasto, '629'), 8, '0') as gasto_subcuenta,
           interno.nombre_cuenta_gasto(coalesce(g.cuenta_al_aprobar, c.cuenta_gasto, '629')) as gasto_titulo,
           case
             when g.metodo_pago in ('efectivo', 'tarjeta_credito', 'tarjeta_debito') then '465'
             when g.metodo_pago = 'tarjeta_corporativa' then '555'
             when g.metodo_pago = 'caja_chica' then '570'
             else '410'
           end as acreedor_cuenta,
           case
             when g.metodo_pago in ('efectivo', 'tarjeta_credito', 'tarjeta_debito') then g.solicitante_id::text
             when g.metodo_pago in ('tarjeta_corporativa', 'caja_chica') then null
             when p.id is not null then p.pais || ':' || p.nif
             when g.emisor_nif is not null then g.emisor_pais || ':' || g.emisor_nif
           end as acreedor_clave,
           case
             when g.metodo_pago = 'tarjeta_corporativa' then '55500001'
             when g.metodo_pago = 'caja_chica' then '57000001'
             when g.metodo_pago in ('transferencia', 'domiciliacion', 'cheque') and p.id is null and g.emisor_nif is null
               then '41000000'
           end as acreedor_subcuenta,
           case
             when g.metodo_pago in ('efectivo', 'tarjeta_credito', 'tarjeta_debito')
               then coalesce(interno.nombre_completo(s.nombre, s.apellidos), s.email)
             when g.metodo_pago = 'tarjeta_corporativa' then 'Tarjeta corporativa (pendiente de aplicar)'
             when g.metodo_pago = 'caja_chica' then 'Caja chica'
             -- Sin proveedor ni NIF, la subcuenta común 41000000: su título no es el de un emisor.
             when p.id is null and g.emisor_nif is null then 'Acreedores varios'
             else coalesce(p.razon_social, g.emisor_nombre)
           end as acreedor_titulo,
           case when g.metodo_pago in ('transferencia', 'domiciliacion', 'cheque') then coalesce(p.nif, g.emisor_nif) end
             as acreedor_nif,
           -- El emisor de la factura, que el registro de IVA pide en cada apunte de IVA, se pagara como se pagara.
           coalesce(p.nif, g.emisor_nif) as emisor_nif
      from public.gastos g
      cross join lateral interno.deducibilidad(g) d
      left join public.categorias_fiscales c on c.categoria = g.categoria
      left join public.proveedores p on p.id = g.proveedor_id
      left join public.usuarios s on s.id = g.solicitante_id
     where g.estado in ('aprobado', 'pagado') and g.fecha_gasto between p_desde and p_hasta
  ), r as (
    select r.id, r.folio, r.fecha_ejecucion, r.cuenta_id, ce.nombre as banco, rg.beneficiario,
           case when rg.beneficiario = 'solicitante' then '465' else '410' end as cuenta,
           case when rg.beneficiario = 'solicitante' then rg.beneficiario_id::text else p.pais || ':' || p.nif end as clave,
           case when rg.beneficiario = 'solicitante'
                then coalesce(interno.nombre_completo(s.nombre, s.apellidos), s.email, min(rg.nombre))
                else coalesce(p.razon_social, min(rg.nombre)) end as titulo,
           p.nif,
           sum(rg.importe) as importe
      from public.remesas r
      join public.cuentas_empresa ce on ce.id = r.cuenta_id
      join public.remesa_gastos rg on rg.remesa_id = r.id
      left join public.usuarios s on rg.beneficiario = 'solicitante' and s.id = rg.beneficiario_id
      left join public.proveedores p on rg.beneficiario = 'proveedor' and p.id = rg.beneficiario_id
     where r.estado = 'confirmada' and r.fecha_ejecucion between p_desde and p_hasta
     group by r.id, r.folio, r.fecha_ejecucion, r.cuenta_id, ce.nombre, rg.beneficiario, rg.beneficiario_id,
              s.nombre, s.apellidos, s.email, p.pais, p.nif, p.razon_social
  )
  -- Gasto: la cuenta de gasto (de un kilometraje o una dieta, su parte exenta de IRPF).
  select g.fecha_gasto, 1, g.folio, 1, left(g.gasto_subcuenta, 3), null, g.gasto_subcuenta, g.gasto_titulo,
         g.folio || ' ' || g.descripcion, g.importe + g.autorepercutido - g.deducible - g.sujeto_irpf, 0::numeric,
         g.acreedor_cuenta, g.acreedor_clave, g.acreedor_subcuenta, null::numeric, null::numeric, null, g.numero_factura
    from g
   where g.importe + g.autorepercutido - g.deducible - g.sujeto_irpf > 0
  union all
  -- Gasto: la parte de un kilometraje o una dieta sujeta a IRPF es retribución de quien viajó
  -- (la nómina la declara y retiene): a sueldos y salarios, no a la cuenta del gasto.
  select g.fecha_gasto, 1, g.folio, 9, '640', null, '64000000', interno.nombre_cuenta_gasto('640'),
         g.folio || ' ' || g.descripcion || ' (sujeto a IRPF)', g.sujeto_irpf, 0::numeric,
         g.acreedor_cuenta, g.acreedor_clave, g.acreedor_subcuenta, null::numeric, null::numeric, null, g.numero_factura
    from g
   where g.sujeto_irpf > 0
  union all
  -- Gasto: el IVA, por cada tipo del desglose: al debe de la 472, lo deducible de su cuota (a su
  -- porcentaje deducible); con inversión del sujeto pasivo, al haber, la cuota entera que la
  -- empresa repercute, en una subcuenta suya (4771tttt): la 477000tt de sus ventas conserva su título.
  select g.fecha_gasto, 1, g.folio, a.orden, a.cuenta, null, a.subcuenta, a.titulo,
         g.folio || ' ' || g.descripcion, a.debe, a.haber,
         g.acreedor_cuenta, g.acreedor_clave, g.acreedor_subcuenta,
         (l.value ->> 'base')::numeric, interno.porcentaje_iva(l.value ->> 'tipo', g.fecha_expedicion),
         g.emisor_nif, g.numero_factura
    from g
   cross join lateral jsonb_array_elements(g.desglose_iva) with ordinality as l(value, orden)
   cross join lateral (values
     (1 + l.orden::integer, '472', '472' || lpad(l.value ->> 'tipo', 5, '0'),
      'H.P. IVA soportado ' || interno.nombre_tipo_iva(l.value ->> 'tipo'),
      round((l.value ->> 'cuota')::numeric * g.porcentaje_deducible / 100, 2), 0::numeric),
     (5 + l.orden::integer, '477', '4771' || lpad(l.value ->> 'tipo', 4, '0'),
      'H.P. IVA repercutido ISP ' || interno.nombre_tipo_iva(l.value ->> 'tipo'),
      0::numeric, case when g.inversion_sujeto_pasivo then (l.value ->> 'cuota')::numeric else 0 end)
   ) as a (orden, cuenta, subcuenta, titulo, debe, haber)
   where a.debe + a.haber > 0
  union all
  -- Gasto: a quién se debe.
  select g.fecha_gasto, 1, g.folio, 10, g.acreedor_cuenta, g.acreedor_clave, g.acreedor_subcuenta, g.acreedor_titulo,
         g.folio || ' ' || g.descripcion, 0::numeric, g.importe,
         left(g.gasto_subcuenta, 3), null, g.gasto_subcuenta, null::numeric, null::numeric, g.acreedor_nif,
         g.numero_factura
    from g
  union all
  -- Remesa: cada beneficiario.
  select r.fecha_ejecucion, 2, r.folio, 1, r.cuenta, r.clave, null, r.titulo,
         'Remesa ' || r.folio || ': ' || r.titulo, r.importe, 0::numeric,
         '572', r.cuenta_id::text, null, null::numeric, null::numeric, r.nif, null
    from r
  union all
  -- Remesa: el banco.
  select r.fecha_ejecucion, 2, r.folio, 10, '572', r.cuenta_id::text, null, min(r.banco),
         'Remesa ' || r.folio, 0::numeric, sum(r.importe),
         null, null, null, null::numeric, null::numeric, null, null
    from r
   group by r.id, r.folio, r.fecha_ejecucion, r.cuenta_id
$$;

-- Da número a las subcuentas del periodo que aún no lo tienen: por orden de primera aparición
-- (fecha y documento) y, en empate, de clave. Un candado para dos diarios a la vez.
create function interno.numerar_subcuentas(p_desde date, p_hasta date) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtext('interno.subcuentas'));
  insert into interno.subcuentas (cuenta, clave, numero)
  select k.cuenta, k.clave,
         coalesce((select max(s.numero) from interno.subcuentas s where s.cuenta = k.cuenta), 0)
           + row_number() over (partition by k.cuenta order by k.primera, k.clave)
    from (select m.cuenta, m.clave, min(x.fecha::text || x.tipo || x.documento) as primera
            from interno.movimientos_diario(p_desde, p_hasta) x
           cross join lateral (values (x.cuenta, x.clave), (x.contra_cuenta, x.contra_clave)) as m (cuenta, clave)
           where m.clave is not null and m.cuenta in ('410', '465', '572')
           group by m.cuenta, m.clave) k
   where not exists (select 1 from interno.subcuentas s where s.cuenta = k.cuenta and s.clave = k.clave);
end
$$;

-- Los apuntes del periodo, numerados: el asiento (correlativo en el periodo, por fecha; el mismo
-- día, los gastos antes que las remesas, y por folio), la línea dentro del asiento, `n`, el orden
-- del apunte en todo el periodo, `total`, cuántos apuntes tiene el periodo (quien lo lee por
-- páginas sabe así cuándo ha terminado aunque el servidor acorte las páginas), y `huella`, un
-- resumen (md5) de todos los apuntes del periodo: si cambia entre dos páginas, el periodo cambió
-- entre ellas (una aprobación, una remesa confirmada) y sus números ya no casan; se vuelve a leer.
create function interno.apuntes_diario(p_desde date, p_hasta date)
returns table (n integer, asiento integer, linea integer, fecha date, cuenta text, subcuenta text, titulo text,
  concepto text, debe numeric(12, 2), haber numeric(12, 2), documento text, contrapartida text,
  base_imponible numeric(12, 2), porcentaje_iva numeric(5, 2), nif text, numero_factura text, total integer,
  huella text) language sql stable security definer set search_path = '' as $$
  with m as (
    select x.*,
           coalesce(x.subcuenta, x.cuenta || lpad(s.numero::text, 5, '0')) as sub,
           coalesce(x.contra_subcuenta, x.contra_cuenta || lpad(cs.numero::text, 5, '0')) as contra,
           dense_rank() over (order by x.fecha, x.tipo, x.documento)::integer as asiento
      from interno.movimientos_diario(p_desde, p_hasta) x
      left join interno.subcuentas s on s.cuenta = x.cuenta and s.clave = x.clave
      left join interno.subcuentas cs on cs.cuenta = x.contra_cuenta and cs.clave = x.contra_clave
     where x.debe <> 0 or x.haber <> 0
  ), l as (
    select m.*, row_number() over (partition by m.asiento order by m.orden, m.sub)::integer as linea
      from m
  )
  , h as (
    select md5(string_agg(
             row(l.asiento, l.linea, l.fecha, l.cuenta, l.sub, l.titulo, l.concepto, l.debe::numeric(12, 2),
                 l.haber::numeric(12, 2), l.documento, l.contra, l.base_imponible::numeric(12, 2),
                 l.porcentaje_iva::numeric(5, 2), l.nif, l.numero_factura)::text,
             '|' order by l.asiento, l.linea)) as huella
      from l
  )
  select row_number() over (order by l.asiento, l.linea)::integer, l.asiento, l.linea, l.fecha, l.cuenta, l.sub,
         l.titulo, l.concepto, l.debe::numeric(12, 2), l.haber::numeric(12, 2), l.documento, l.contra,
         l.base_imponible::numeric(12, 2), l.porcentaje_iva::numeric(5, 2), l.nif, l.numero_factura,
         (count(*) over ())::integer, h.huella
    from l cross join h
   order by l.asiento, l.linea
$$;

-- ---------------------------------------------------------------------------------------------
-- Funciones públicas (solo administradores)
-- ---------------------------------------------------------------------------------------------

-- Los apuntes del libro diario de un periodo, en orden: uno por fila. Por páginas, si se pide:
-- los que siguen al apunte p_despues, como mucho p_limite (sin límite, todos); `total`, los del
-- periodo; `huella`, la de todo el periodo (la misma en cada página mientras el periodo no cambie).
create function public.libro_diario(p_desde date, p_hasta date, p_despues integer default 0,
  p_limite integer default null)
returns table (n integer, asiento integer, linea integer, fecha date, cuenta text, subcuenta text, titulo text,
  concepto text, debe numeric(12, 2), haber numeric(12, 2), documento text, contrapartida text,
  base_imponible numeric(12, 2), porcentaje_iva numeric(5, 2), nif text, numero_factura text, total integer,
  huella text) language plpgsql security definer set search_path = '' as $$
begin
  perform interno.exigir_diario(p_desde, p_hasta);
  perform interno.numerar_subcuentas(p_desde, p_hasta);
  return query
    select a.* from interno.apuntes_diario(p_desde, p_hasta) a
     where a.n > coalesce(p_despues, 0)
     order by a.n
     limit p_limite;
end
$$;

-- Los meses del periodo con algún movimiento («2026-03»), en orden: quien lee el diario mes a mes
-- se salta así los meses vacíos con una sola llamada (sin calcular ni numerar nada).
create function public.meses_libro_diario(p_desde date, p_hasta date) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_diario(p_desde, p_hasta);
  return (
    select coalesce(jsonb_agg(m.mes order by m.mes), '[]'::jsonb)
      from (select to_char(g.fecha_gasto, 'YYYY-MM') as mes from public.gastos g
             where g.estado in ('aprobado', 'pagado') and g.fecha_gasto between p_desde and p_hasta
            union
            select to_char(r.fecha_ejecucion, 'YYYY-MM') from public.remesas r
             where r.estado = 'confirmada' and r.fecha_ejecucion between p_desde and p_hasta) m);
end
$$;

-- Lo que dice la pantalla del periodo: asientos, apuntes, sumas del debe y del haber (exactas),
-- asientos descuadrados (ninguno, si las reglas se cumplen) y lo que falta en el diario: gastos
-- del periodo aún pendientes de aprobar, con el desglose de IVA por revisar (su IVA va entero al
-- gasto) y pagados fuera de una remesa (su pago no se asienta). Importes como texto.
create function public.resumen_libro_diario(p_desde date, p_hasta date) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_diario(p_desde, p_hasta);
  return (
    with a as (select * from interno.apuntes_diario(p_desde, p_hasta)),
    s as (select a.asiento, sum(a.debe) as debe, sum(a.haber) as haber from a group by a.asiento)
    select jsonb_build_object(
      'asientos', (select count(*) from s),
      'apuntes', (select count(*) from a),
      'debe', (select coalesce(sum(a.debe), 0)::numeric(14, 2)::text from a),
      'haber', (select coalesce(sum(a.haber), 0)::numeric(14, 2)::text from a),
      'descuadrados', (select count(*) from s where s.debe <> s.haber),
      'gastos', (select count(distinct a.documento) from a where a.documento not like 'REM-%'),
      'remesas', (select count(distinct a.documento) from a where a.documento like 'REM-%'),
      'pendientes', (select count(*) from public.gastos g
                      where g.estado = 'pendiente' and g.fecha_gasto between p_desde and p_hasta),
      'por_revisar', (select count(*) from public.gastos g
                       where g.estado in ('aprobado', 'pagado') and g.desglose_revisar
                         and g.fecha_gasto between p_desde and p_hasta),
      'pagados_fuera', (select count(*) from public.gastos g
                         where g.estado = 'pagado' and g.fecha_pago between p_desde and p_hasta
                           and g.metodo_pago not in ('tarjeta_corporativa', 'caja_chica')
                           and not exists (select 1 from public.remesa_gastos rg
                                            where rg.gasto_id = g.id and rg.viva))));
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Privilegios
-- ---------------------------------------------------------------------------------------------
revoke all on function
  interno.fijar_al_aprobar(), interno.nombre_cuenta_gasto(text), interno.exigir_diario(date, date),
  interno.movimientos_diario(date, date), interno.numerar_subcuentas(date, date), interno.apuntes_diario(date, date)
  from public, anon, authenticated;
revoke all on function public.libro_diario(date, date, integer, integer), public.resumen_libro_diario(date, date),
  public.meses_libro_diario(date, date)
  from public, anon, authenticated;
grant execute on function public.libro_diario(date, date, integer, integer), public.resumen_libro_diario(date, date),
  public.meses_libro_diario(date, date)
  to authenticated, service_role;

-- gastos tiene una columna más (cuenta_al_aprobar).
select interno.crear_gastos_vista();
